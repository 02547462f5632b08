import Bindery
import Foundation
import RxCore
import RxWidgets

/// The `search` scene (issue 12's debounced search, after RxExample's Wikipedia search):
/// a search bar whose text, 300 ms after the last keystroke, filters a table of
/// countries; Cancel clears it; a row's ⓘ button tells its capital in an alert.
public final class CountrySearchViewController: ViewController, Scene {
    /// The query.
    public let searchBar = SearchBar()
    /// "12 countries".
    public let countLabel = Label()
    /// The matches.
    public let resultsTable = TableView()
    /// How many searches ran (for tests: the debounce makes it one per pause).
    public private(set) var searches = 0

    private let scheduler: SchedulerType
    private let bag = DisposeBag()

    /// The countries searched, with their capitals.
    public static let countries: [(name: String, capital: String)] = [
        ("Argentina", "Buenos Aires"), ("Australia", "Canberra"), ("Austria", "Vienna"), ("Belgium", "Brussels"),
        ("Brazil", "Brasília"), ("Canada", "Ottawa"), ("Chile", "Santiago"), ("China", "Beijing"),
        ("Colombia", "Bogotá"), ("Denmark", "Copenhagen"), ("Egypt", "Cairo"), ("Finland", "Helsinki"),
        ("France", "Paris"), ("Germany", "Berlin"), ("Ghana", "Accra"), ("Greece", "Athens"),
        ("Iceland", "Reykjavík"), ("India", "New Delhi"), ("Indonesia", "Jakarta"), ("Ireland", "Dublin"),
        ("Italy", "Rome"), ("Japan", "Tokyo"), ("Kenya", "Nairobi"), ("Mexico", "Mexico City"),
        ("Morocco", "Rabat"), ("Netherlands", "Amsterdam"), ("New Zealand", "Wellington"), ("Nigeria", "Abuja"),
        ("Norway", "Oslo"), ("Peru", "Lima"), ("Poland", "Warsaw"), ("Portugal", "Lisbon"),
        ("South Korea", "Seoul"), ("Spain", "Madrid"), ("Sweden", "Stockholm"), ("Switzerland", "Bern"),
        ("Thailand", "Bangkok"), ("Turkey", "Ankara"), ("United Kingdom", "London"), ("Vietnam", "Hanoi"),
    ]

    /// The search on `scheduler` (the main loop's in the app, virtual time in tests).
    public init(scheduler: SchedulerType) {
        self.scheduler = scheduler
        super.init()
    }

    /// The countries whose name contains `query` (case and accent insensitive).
    public static func matches(_ query: String) -> [(name: String, capital: String)] {
        let q = query.trimmingCharacters(in: .whitespaces)
        guard !q.isEmpty else { return countries }
        return countries.filter { $0.name.range(of: q, options: [.caseInsensitive, .diacriticInsensitive]) != nil }
    }

    /// Binds the debounced query to the table and the count.
    override public func viewDidLoad() {
        super.viewDidLoad()
        searchBar.placeholder = "Search countries"
        searchBar.showsCancelButton = true
        resultsTable.accessibilityLabel = "Countries"
        resultsTable.register(CountryCell.self, forCellReuseIdentifier: "Country")

        // Setting the text in code does not emit (as in RxCocoa), so Cancel's empty query is
        // merged in.
        let cancelled = searchBar.rx.cancelButtonClicked.map { "" }
        let results = Observable.merge(searchBar.rx.text.orEmpty.asObservable(), cancelled)
            .debounce(.milliseconds(300), scheduler: scheduler)
            .distinctUntilChanged()
            .map { [unowned self] query -> [(name: String, capital: String)] in
                self.searches += 1
                return Self.matches(query)
            }
            .startWith(Self.countries)
            .share(replay: 1)

        results
            .map { $0.map { "\($0.name)|\($0.capital)" } }
            .bind(to: resultsTable.rx.items(cellIdentifier: "Country", cellType: CountryCell.self)) { _, entry, cell in
                let parts = entry.split(separator: "|", maxSplits: 1).map(String.init)
                cell.textLabel?.text = parts[0]
                cell.detailTextLabel?.text = parts.count > 1 ? parts[1] : nil
                cell.accessoryType = .detailButton
            }
            .disposed(by: bag)
        results
            .map { $0.count == 1 ? "1 country" : $0.isEmpty ? "No country matches." : "\($0.count) countries" }
            .bind(to: countLabel.rx.text)
            .disposed(by: bag)
        searchBar.rx.cancelButtonClicked
            .subscribe(onNext: { [searchBar] in searchBar.text = "" })
            .disposed(by: bag)
        resultsTable.rx.itemAccessoryButtonTapped
            .subscribe(onNext: { [unowned self] indexPath in
                guard let entry: String = try? self.resultsTable.rx.model(at: indexPath) else { return }
                let parts = entry.split(separator: "|", maxSplits: 1).map(String.init)
                let alert = AlertController(title: parts[0], message: "The capital is \(parts.count > 1 ? parts[1] : "unknown").",
                                            preferredStyle: .alert)
                alert.addAction(AlertAction(title: "OK", style: .cancel))
                self.present(alert, animated: true)
            })
            .disposed(by: bag)
    }
}

/// One row of the `bigtable` scene: a number (its identity) and whether it is starred,
/// so a star is an update of a row that keeps its key.
public struct BigTableNumber: IdentifiableType, Equatable, Sendable {
    /// The number, and the row's identity.
    public let number: Int
    /// Whether the row shows a star.
    public var isStarred: Bool

    /// The number.
    public var identity: Int { number }

    /// A row for `number`.
    public init(_ number: Int, isStarred: Bool = false) {
        self.number = number
        self.isStarred = isStarred
    }
}

/// The `bigtable` scene: 10,000 rows the browser scrolls smoothly (it renders only what
/// is in view), a tap names the row, and each button (add, remove, move, star one row) is
/// one small keyed patch.
public final class BigTableViewController: ViewController, Scene {
    /// The rows.
    public let numbersTable = TableView()
    /// "You picked row 42".
    public let pickedLabel = Label()
    /// Inserts one row at the top.
    public let addButton = Button()
    /// Removes the top row.
    public let removeButton = Button()
    /// Moves the last row to the top.
    public let moveButton = Button()
    /// Stars (or unstars) the top row.
    public let starButton = Button()

    /// Rows at start.
    public static let rowCount = 10_000

    private let numbers = BehaviorRelay(value: [AnimatableSectionModel(
        model: "Numbers", items: (1...BigTableViewController.rowCount).map { BigTableNumber($0) })])
    /// The largest number given to a row so far (loop-confined, like the scene).
    private var lastNumber = BigTableViewController.rowCount
    private let bag = DisposeBag()

    /// The scene's widgets under their ids.
    public var sceneWidgets: [(id: String, widget: View)] {
        [("addButton", addButton), ("removeButton", removeButton), ("moveButton", moveButton),
         ("starButton", starButton), ("pickedLabel", pickedLabel), ("numbersTable", numbersTable)]
    }

    /// The four buttons side by side, then the label and the table.
    public var sceneLayout: SceneLayout? {
        .column([.row([.widget("addButton"), .widget("removeButton"), .widget("moveButton"), .widget("starButton")]),
                 .widget("pickedLabel"), .widget("numbersTable")])
    }

    /// Binds the rows (keyed by number), the tap and the buttons.
    override public func viewDidLoad() {
        super.viewDidLoad()
        addButton.setTitle("Add a row at the top", for: .normal)
        removeButton.setTitle("Remove the top row", for: .normal)
        moveButton.setTitle("Move the last row to the top", for: .normal)
        starButton.setTitle("Star the top row", for: .normal)
        pickedLabel.text = "Tap a row."
        numbersTable.accessibilityLabel = "Ten thousand numbers"
        let dataSource = RxTableViewSectionedAnimatedDataSource<AnimatableSectionModel<String, BigTableNumber>>(
            configureCell: { _, _, _, row in
                let cell = TableViewCell(style: .value1, reuseIdentifier: "Number")
                cell.textLabel?.text = "Row \(row.number)"
                let parity = row.number % 2 == 0 ? "even" : "odd"
                cell.detailTextLabel?.text = row.isStarred ? "★ \(parity)" : parity
                return cell
            })
        numbers.bind(to: numbersTable.rx.items(dataSource: dataSource)).disposed(by: bag)
        numbersTable.rx.modelSelected(BigTableNumber.self)
            .map { "You picked row \($0.number)." }
            .bind(to: pickedLabel.rx.text)
            .disposed(by: bag)
        edit(on: addButton) { [unowned self] items in
            lastNumber += 1
            items.insert(BigTableNumber(lastNumber), at: 0)
        }
        edit(on: removeButton) { items in
            if !items.isEmpty { items.removeFirst() }
        }
        edit(on: moveButton) { items in
            if let last = items.popLast() { items.insert(last, at: 0) }
        }
        edit(on: starButton) { items in
            if !items.isEmpty { items[0].isStarred.toggle() }
        }
    }

    /// On each tap of `button`, edits the rows with `change` and shows the result.
    private func edit(on button: Button, _ change: @escaping (inout [BigTableNumber]) -> Void) {
        button.rx.tap
            .subscribe(onNext: { [numbers] in
                var value = numbers.value
                change(&value[0].items)
                numbers.accept(value)
            })
            .disposed(by: bag)
    }
}

/// A country's cell: the name over its capital (UIKit's subtitle style).
public final class CountryCell: TableViewCell {
    /// Always a subtitle cell, whatever style is asked for (as a UIKit subclass does).
    public required init(style: CellStyle, reuseIdentifier: String?) {
        super.init(style: .subtitle, reuseIdentifier: reuseIdentifier)
    }
}
