import RxTesting
import UIKitCompat
import XCTest

// RxExample's search: a debounced query, flatMapLatest to the results, bound to a table.

final class WikipediaSearchViewController: UIViewController {
    let bag = DisposeBag()
    let searchBar = UISearchBar()
    let resultsTableView = UITableView()
    let scheduler: SchedulerType
    var searches: [String] = []

    init(scheduler: SchedulerType) {
        self.scheduler = scheduler
        super.init()
    }

    private func search(_ query: String) -> Observable<[String]> {
        searches.append(query)
        return .just(["Swift", "SwiftUI", "Rx"].filter { $0.lowercased().hasPrefix(query.lowercased()) })
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        searchBar.showsCancelButton = true
        resultsTableView.register(UITableViewCell.self, forCellReuseIdentifier: "WikipediaSearchCell")
        searchBar.rx.text.orEmpty
            .debounce(.milliseconds(300), scheduler: scheduler)
            .distinctUntilChanged()
            .flatMapLatest { [unowned self] query in query.isEmpty ? .just([]) : self.search(query) }
            .bind(to: resultsTableView.rx.items(cellIdentifier: "WikipediaSearchCell", cellType: UITableViewCell.self)) { _, title, cell in
                cell.textLabel?.text = title
            }
            .disposed(by: bag)
        searchBar.rx.cancelButtonClicked
            .subscribe(onNext: { [searchBar] in searchBar.text = "" })
            .disposed(by: bag)
    }
}

final class UIKitSearchTests: XCTestCase {
    func testTypingIsDebouncedIntoOneSearch() throws {
        let scheduler = TestScheduler(initialClock: 0, resolution: 0.1, simulateProcessingDelay: false)
        let controller = WikipediaSearchViewController(scheduler: scheduler)
        controller.loadViewIfNeeded()
        let searchBar = controller.searchBar
        scheduler.scheduleAt(10) { try? searchBar.sendUserEvent(.editingChanged, value: .string("s")) }
        scheduler.scheduleAt(11) { try? searchBar.sendUserEvent(.editingChanged, value: .string("sw")) }
        scheduler.scheduleAt(12) { try? searchBar.sendUserEvent(.editingChanged, value: .string("swi")) }
        scheduler.start()
        XCTAssertEqual(controller.searches, ["swi"], "three keystrokes within 300 ms: one search")
        let titles = controller.resultsTableView.rows.map { $0["text"] }
        XCTAssertEqual(titles, [.string("Swift"), .string("SwiftUI")])

        try searchBar.receive(WidgetEvent(name: "cancelButtonClicked"))
        XCTAssertEqual(searchBar.text, "")
    }
}
