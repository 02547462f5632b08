import Bindery
import BinderyTesting
import Foundation
import RxCore
import RxTesting
import RxWidgets
import XCTest

/// The list of `repo`: three rows; a row's tap pushes its screen, and it rebuilds the
/// screen a URL names (`#/repo-2`).
final class ParameterRepoListViewController: ViewController, ScreenRestoring {
    let table = TableView()
    private let bag = DisposeBag()

    override func viewDidLoad() {
        super.viewDidLoad()
        navigationItem.title = "Repos"
        Observable.just(["repo-1", "repo-2", "repo-3"]).bind(to: table.rx.items) { _, _, name in
            let cell = TableViewCell()
            cell.textLabel?.text = name
            return cell
        }.disposed(by: bag)
        table.rx.modelSelected(String.self)
            .subscribe(onNext: { [unowned self] name in
                self.navigationController?.pushViewController(ParameterRepoViewController(name: name), animated: true)
            })
            .disposed(by: bag)
    }

    func viewController(forRestorationIdentifier identifier: String) -> ViewController? {
        ["repo-1", "repo-2", "repo-3"].contains(identifier) ? ParameterRepoViewController(name: identifier) : nil
    }
}

/// A repo's screen: a Star button asks in an alert.
final class ParameterRepoViewController: ViewController {
    let starButton = Button()
    let stars = Label()
    let name: String
    private let bag = DisposeBag()

    init(name: String) {
        self.name = name
        super.init()
        restorationIdentifier = name
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        navigationItem.title = name
        stars.text = "not starred"
        starButton.rx.tap
            .subscribe(onNext: { [unowned self] in
                let alert = AlertController(title: "Star \(name)?", message: nil, preferredStyle: .alert)
                alert.addAction(AlertAction(title: "Cancel", style: .cancel))
                alert.addAction(AlertAction(title: "Star", style: .default) { [stars] _ in stars.text = "starred" })
                self.present(alert, animated: true)
            })
            .disposed(by: bag)
    }
}

/// `repo?id=N` opens on repo N's screen; a bad id is a `SceneParameterError`.
func makeParameterRegistry() -> SceneRegistry {
    let registry = SceneRegistry()
    registry.register("repo", title: "Repos") { (context: SceneContext) in
        let list = ParameterRepoListViewController()
        let navigation = NavigationController(rootViewController: list)
        if let id = try context.parameter("id", as: Int.self) {
            guard let screen = list.viewController(forRestorationIdentifier: "repo-\(id)") else {
                throw SceneParameterError("id", "there is no repository \(id)")
            }
            navigation.pushViewController(screen, animated: false)
        }
        return navigation
    }
    registry.register("needs-name") { (context: SceneContext) in
        let controller = TestEchoViewController()
        controller.input.text = try context.requiredParameter("name")
        return controller
    }
    registry.register("shared", sharing: .shared) { (context: SceneContext) in
        XCTAssertEqual(context.parameters, [:], "a shared scene has nobody's parameters")
        return TestEchoViewController()
    }
    return registry
}

/// Scenes opened with parameters (`/scene/repo?id=2` → `SceneContext.parameters`) and on
/// a screen path (`#/repo-2`), through the store, as the WebSocket and the HTTP API do.
final class SceneParametersTests: XCTestCase {
    private var store: SessionStore!

    override func setUp() {
        super.setUp()
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
        store = SessionStore(registry: makeParameterRegistry(),
                             configuration: SessionStore.Configuration(strictBindingErrors: false),
                             scheduler: scheduler, flushScheduler: scheduler)
    }

    private func screens(_ session: Session) -> [String] {
        guard case .rows(let rows)? = session.widget(withID: "navigation")?.snapshot()["screens"] else { return [] }
        return rows.map { row in
            if case .string(let title)? = row.fields["title"] { return title }
            return "?"
        }
    }

    // MARK: - The context's helpers

    func testTypedParametersAndTheirErrors() throws {
        let context = SceneContext(sceneName: "repo", scheduler: MainScheduler.instance,
                                   parameters: ["id": "42", "draft": "true", "ratio": "0.5", "name": "Ada", "bad": "4x"])
        XCTAssertEqual(try context.parameter("id", as: Int.self), 42)
        XCTAssertEqual(try context.parameter("draft", as: Bool.self), true)
        XCTAssertEqual(try context.parameter("ratio", as: Double.self), 0.5)
        XCTAssertEqual(try context.parameter("name"), "Ada")
        XCTAssertNil(try context.parameter("absent", as: Int.self))
        XCTAssertEqual(try context.requiredParameter("id", as: Int.self), 42)

        XCTAssertThrowsError(try context.parameter("bad", as: Int.self)) { error in
            XCTAssertEqual(error as? SceneParameterError, SceneParameterError("bad", "expected an integer, got '4x'"))
            XCTAssertEqual("\(error)", "parameter 'bad': expected an integer, got '4x'")
        }
        XCTAssertThrowsError(try context.parameter("name", as: Bool.self)) { error in
            XCTAssertEqual("\(error)", "parameter 'name': expected true or false, got 'Ada'")
        }
        XCTAssertThrowsError(try context.requiredParameter("absent", as: Int.self)) { error in
            XCTAssertEqual(error as? SceneParameterError, .missing("absent"))
            XCTAssertEqual("\(error)", "parameter 'absent': required but missing")
        }
    }

    // MARK: - Into the session

    func testParametersReachTheContextAndTheSessionAndOpenTheDetailScreen() throws {
        let session = try store.createSession(scene: "repo", parameters: ["id": "2", "utm": "x"])
        XCTAssertEqual(session.context?.parameters, ["id": "2", "utm": "x"])
        XCTAssertEqual(session.sceneParameters, ["id": "2", "utm": "x"])
        XCTAssertEqual(screens(session), ["Repos", "repo-2"])
        XCTAssertEqual(session.screenPath, ["repo-2"])
        // The first scene message holds the pushed screen's widgets and its identifier.
        let scene = session.sceneMessage(resumed: false)
        XCTAssertEqual(scene.widgets.map(\.id), ["navigation", "table", "screen-2.starButton", "screen-2.stars"])
        guard case .rows(let rows)? = scene.widgets[0].properties["screens"] else { return XCTFail("no screens") }
        XCTAssertEqual(rows[1].fields["restorationIdentifier"], .string("repo-2"))
        XCTAssertNil(rows[0].fields["restorationIdentifier"])
    }

    func testBadParametersAreABadParameterSessionErrorAndNoSession() {
        for (parameters, message) in [(["id": "two"], "parameter 'id': expected an integer, got 'two'"),
                                      (["id": "9"], "parameter 'id': there is no repository 9")] {
            XCTAssertThrowsError(try store.createSession(scene: "repo", parameters: parameters)) { error in
                XCTAssertEqual(error as? SessionError, .badParameter(message))
                XCTAssertEqual((error as? SessionError)?.httpStatus, 400)
                XCTAssertEqual((error as? SessionError)?.code, "bad-parameter")
            }
        }
        XCTAssertThrowsError(try store.createSession(scene: "needs-name")) { error in
            XCTAssertEqual(error as? SessionError, .badParameter("parameter 'name': required but missing"))
        }
        XCTAssertEqual(store.sessionCount, 0)
        XCTAssertEqual(ErrorCode(rawValue: "bad-parameter"), .badParameter)
    }

    func testAResumeNeedsTheSameParameters() throws {
        let first = try store.createSession(scene: "repo", parameters: ["id": "1"])
        let same = try store.resumeOrCreate(scene: "repo", token: first.id, parameters: ["id": "1"])
        XCTAssertTrue(same.resumed)
        XCTAssertTrue(same.session === first)
        let other = try store.resumeOrCreate(scene: "repo", token: first.id, parameters: ["id": "3"])
        XCTAssertFalse(other.resumed, "another link is another session")
        XCTAssertEqual(screens(other.session), ["Repos", "repo-3"])
        XCTAssertFalse(first.isEnded, "the other session is left alone")
    }

    func testASharedSceneHasNoParameters() throws {
        let a = try store.createSession(scene: "shared", parameters: ["who": "a"])
        let b = try store.resumeOrCreate(scene: "shared", token: a.id, parameters: ["who": "b"])
        XCTAssertEqual(a.sceneParameters, [:])
        XCTAssertTrue(b.resumed, "one instance for everybody: parameters do not split it")
    }

    // MARK: - Screen paths

    func testAScreenPathRebuildsTheStack() throws {
        XCTAssertEqual(screens(try store.createSession(scene: "repo", screenPath: ["repo-3"])), ["Repos", "repo-3"])
        // The detail screen is not ScreenRestoring: the walk stops there.
        XCTAssertEqual(screens(try store.createSession(scene: "repo", screenPath: ["repo-3", "issues"])), ["Repos", "repo-3"])
        XCTAssertEqual(screens(try store.createSession(scene: "repo", screenPath: ["nope", "repo-1"])), ["Repos"])
        // Opened on repo-2 by its parameter, with the URL naming it too: not pushed twice.
        XCTAssertEqual(screens(try store.createSession(scene: "repo", parameters: ["id": "2"], screenPath: ["repo-2"])),
                       ["Repos", "repo-2"])
    }

    func testTheScreenPathFollowsPushesAndBack() throws {
        let session = try store.createSession(scene: "repo")
        XCTAssertEqual(session.screenPath, [])
        _ = session.handle(text: #"{"type":"event","seq":1,"target":"table","event":"itemSelected","row":"0.2"}"#)
        XCTAssertEqual(session.screenPath, ["repo-3"])
        _ = session.handle(text: #"{"type":"event","seq":2,"target":"navigation","event":"back","row":"screen-2"}"#)
        XCTAssertEqual(session.screenPath, [])
    }
}
