import Bindery
import RxCore
import RxWidgets

/// A row of the `repos` list.
public struct Repo: Equatable, Sendable {
    /// `repo-N`, unique: the row's key.
    public let name: String
    /// `author-N`.
    public let author: String
}

/// The `repos` scene's view model (seed 6): an `@ObservableProperty` array and a
/// load-more action that appends a page of 20 and disables itself at 100.
public final class ReposViewModel {
    /// The repos loaded so far.
    @ObservableProperty
    public private(set) var repos: [Repo] = []

    /// Appends the next page; enabled until the list holds ``limit`` rows.
    public lazy var loadMoreAction = CocoaAction(enabledIf: canExecuteLoadMore,
                                                 workFactory: { [weak self] _ -> Observable<Void> in
                                                     self?.append(self?.fetchPage() ?? [])
                                                     return .just(())
                                                 })

    /// Rows per tap.
    public static let pageSize = 20
    /// Rows after which loading stops.
    public static let limit = 100

    private let canExecuteLoadMore = BehaviorSubject<Bool>(value: true)

    /// An empty list.
    public init() {}

    /// The next page (made up: the demo has no backend).
    private func fetchPage() -> [Repo] {
        let start = repos.count + 1
        let end = min(start + Self.pageSize, Self.limit + 1)
        return (start..<end).map { Repo(name: "repo-\($0)", author: "author-\($0)") }
    }

    private func append(_ page: [Repo]) {
        repos.append(contentsOf: page)
        if page.isEmpty || repos.count >= Self.limit {
            canExecuteLoadMore.onNext(false)
        }
    }
}

/// The `repos` scene (seed 6): a keyed list bound to the view model's array, and a
/// "Load more" button bound to its action.
public final class ReposViewController: ViewController, Scene {
    /// Rows `{name, author}` keyed by name.
    public let repoList = ListView()
    /// Runs the load-more action.
    public let loadMoreButton = Button()

    /// The view model (public so tests can look at it).
    public let viewModel = ReposViewModel()
    private let bag = DisposeBag()

    /// An empty list.
    override public init() {
        super.init()
    }

    /// The scene's widgets under their contract ids, in display order.
    public var sceneWidgets: [(id: String, widget: View)] {
        [("repoList", repoList), ("loadMoreButton", loadMoreButton)]
    }

    /// Binds the rows and the button.
    override public func viewDidLoad() {
        super.viewDidLoad()
        loadMoreButton.setTitle("Load more", for: .normal)
        repoList.accessibilityLabel = "Repositories"

        viewModel.$repos
            .bind(to: repoList.rx.items) { _, _, repo in
                ListRow(id: repo.name, fields: ["name": .string(repo.name), "author": .string(repo.author)])
            }
            .disposed(by: bag)

        loadMoreButton.rx.action = viewModel.loadMoreAction
    }
}
