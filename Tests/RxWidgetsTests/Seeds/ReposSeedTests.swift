import Foundation
import RxCore
import RxWidgets
import XCTest

// Seed 6 (the `repos` scene): a list view bound to the MVVM seed's `@ObservableProperty`
// array, and a load-more `CocoaAction` that appends 20 rows per tap and disables itself
// once there are 100.

struct Repo {
    let name: String
    let author: String
}

final class ListViewModel {
    @ObservableProperty
    private(set) var repos: [Repo] = []

    lazy var loadMoreAction = CocoaAction(enabledIf: canExecuteLoadMore,
                                          workFactory: { [weak self] _ -> Observable<Void> in
                                              self?.appendRepo(self?.fetchPage() ?? [])
                                              return .just(())
                                          })

    private let canExecuteLoadMore = BehaviorSubject<Bool>(value: true)

    private static let pageSize = 20
    private static let limit = 100

    private func fetchPage() -> [Repo] {
        let start = repos.count + 1
        return (start..<(start + Self.pageSize)).map { Repo(name: "repo-\($0)", author: "author-\($0)") }
    }

    private func appendRepo(_ repos: [Repo]) {
        if repos.isEmpty {
            canExecuteLoadMore.onNext(false)
        } else {
            self.repos.append(contentsOf: repos)
            if self.repos.count >= Self.limit {
                canExecuteLoadMore.onNext(false)
            }
        }
    }
}

final class ReposViewController: ViewController {
    let repoList = ListView()
    let loadMoreButton = Button()

    let viewModel = ListViewModel()
    private let bag = DisposeBag()

    override func viewDidLoad() {
        super.viewDidLoad()
        loadMoreButton.setTitle("Load more", for: .normal)

        viewModel.$repos
            .bind(to: repoList.rx.items) { _, _, repo in
                ListRow(id: repo.name, fields: ["name": .string(repo.name), "author": .string(repo.author)])
            }
            .disposed(by: bag)

        loadMoreButton.rx.action = viewModel.loadMoreAction
    }
}

final class ReposSeedTests: XCTestCase {
    func testEachTapAppendsTwentyKeyedRows() throws {
        let controller = ReposViewController()
        controller.loadViewIfNeeded()
        let tree = widgetTestTree(["repoList": controller.repoList, "loadMoreButton": controller.loadMoreButton])
        XCTAssertEqual(controller.repoList.items, [])
        XCTAssertTrue(controller.loadMoreButton.isEnabled)

        try controller.loadMoreButton.sendUserEvent(.touchUpInside)
        XCTAssertEqual(controller.repoList.items.count, 20)
        XCTAssertEqual(controller.repoList.items.first, ListRow(id: "repo-1", fields: ["name": .string("repo-1"), "author": .string("author-1")]))
        var changes = tree.takeChanges()
        XCTAssertEqual(changes.map(\.property), ["items"], "the button ends enabled again: no net change")

        try controller.loadMoreButton.sendUserEvent(.touchUpInside)
        changes = tree.takeChanges()
        XCTAssertEqual(changes.count, 1)
        guard case .rows(let old) = changes[0].oldValue, case .rows(let new) = changes[0].value else {
            return XCTFail("items should be rows")
        }
        let edits = try XCTUnwrap(ListRow.changes(from: old, to: new))
        XCTAssertEqual(edits, [.insert(index: 20, rows: Array(new[20..<40]))])
        XCTAssertEqual(new[39].id, "repo-40")
    }

    func testTheActionDisablesItselfAtOneHundredRows() throws {
        let controller = ReposViewController()
        controller.loadViewIfNeeded()
        let tree = widgetTestTree(["repoList": controller.repoList, "loadMoreButton": controller.loadMoreButton])

        for _ in 1...5 {
            try controller.loadMoreButton.sendUserEvent(.touchUpInside)
        }
        XCTAssertEqual(controller.repoList.items.count, 100)
        XCTAssertEqual(controller.repoList.items.last?.id, "repo-100")
        XCTAssertFalse(controller.loadMoreButton.isEnabled)
        XCTAssertEqual(tree.takeChanges().map(\.description), ["repoList.items = 100 rows", "loadMoreButton.isEnabled = false"])

        XCTAssertThrowsError(try controller.loadMoreButton.sendUserEvent(.touchUpInside)) { error in
            XCTAssertEqual((error as? WidgetInputError)?.code, .disabled)
        }
        XCTAssertEqual(controller.repoList.items.count, 100)
    }
}
