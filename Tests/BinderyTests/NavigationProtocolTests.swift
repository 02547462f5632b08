import Bindery
import BinderyTesting
import Foundation
import RxCore
import RxTesting
import RxWidgets
import XCTest

/// A master list of repos; selecting one pushes its detail screen.
private final class RepoListViewController: ViewController {
    let bag = DisposeBag()
    let table = TableView()

    override func viewDidLoad() {
        super.viewDidLoad()
        navigationItem.title = "Repos"
        navigationItem.rightBarButtonItem = BarButtonItem(barButtonSystemItem: .edit)
        navigationItem.rightBarButtonItem!.rx.tap
            .subscribe(onNext: { [unowned self] in self.table.setEditing(!self.table.isEditing, animated: true) })
            .disposed(by: bag)
        Observable.just(["bindery", "rxswift"]).bind(to: table.rx.items) { _, _, name in
            let cell = TableViewCell()
            cell.textLabel?.text = name
            cell.accessoryType = .disclosureIndicator
            return cell
        }.disposed(by: bag)
        table.rx.modelSelected(String.self)
            .subscribe(onNext: { [unowned self] name in
                self.navigationController?.pushViewController(RepoDetailViewController(name: name), animated: true)
            })
            .disposed(by: bag)
    }
}

private final class RepoDetailViewController: ViewController {
    let name: String
    let stars = Label()

    init(name: String) {
        self.name = name
        super.init()
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        navigationItem.title = name
        stars.text = "\(name.count * 100) stars"
    }
}

/// Navigation over the real message path: pushed screens' widgets in `added`, Back pops.
final class NavigationProtocolTests: XCTestCase {
    private var store: SessionStore!

    override func setUp() {
        super.setUp()
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
        let registry = SceneRegistry()
        registry.register("repos", title: "Repos") { NavigationController(rootViewController: RepoListViewController()) }
        store = SessionStore(registry: registry,
                             configuration: SessionStore.Configuration(gracePeriod: .seconds(30), maxSessions: 5,
                                                                       maxSessionsPerAddress: 3, strictBindingErrors: false),
                             scheduler: scheduler, flushScheduler: scheduler)
    }

    private func send(_ session: Session, _ json: String) -> String {
        MessageEncoder.encode(session.handle(text: json)!)
    }

    func testTheSceneIsTheStackWithTheRootScreensWidgets() throws {
        let session = try store.createSession(scene: "repos")
        let scene = session.sceneMessage(resumed: false)
        XCTAssertEqual(scene.widgets.map(\.id), ["navigation", "table", "screen-1.rightBarButtonItem"])
        XCTAssertEqual(scene.widgets.map(\.kind), ["navigationController", "tableView", "barButtonItem"])
        XCTAssertEqual(scene.widgets[0].properties["screens"], .rows([
            ListRow(id: "screen-1", fields: ["title": .string("Repos"), "widgets": .strings(["table"]),
                                             "rightBarButtonItem": .string("screen-1.rightBarButtonItem")]),
        ]))
    }

    func testSelectingARowPushesItsScreenAndBackPopsIt() throws {
        let session = try store.createSession(scene: "repos")
        XCTAssertEqual(send(session, #"{"type":"event","seq":1,"target":"table","event":"itemSelected","row":"0.1"}"#),
                       ##"{"type":"patch","ack":1,"added":[{"id":"screen-2.stars","kind":"label","props":{"alpha":1,"backgroundColor":null,"isHidden":false,"text":"700 stars","textColor":"#000000ff"}}],"changes":[{"target":"table","prop":"selectedRows","value":["0.1"]},{"target":"navigation","prop":"screens","ops":[{"op":"insert","index":1,"rows":[{"id":"screen-2","backTitle":"Repos","title":"rxswift","widgets":["screen-2.stars"]}]}]}]}"##)
        XCTAssertEqual(send(session, #"{"type":"event","seq":2,"target":"navigation","event":"back","row":"screen-2"}"#),
                       #"{"type":"patch","ack":2,"removed":["screen-2.stars"],"changes":[{"target":"navigation","prop":"screens","ops":[{"op":"remove","index":1,"count":1}]}]}"#)
        guard case .error(let error)? = session.handle(text: #"{"type":"event","seq":3,"target":"navigation","event":"back"}"#) else {
            return XCTFail("an error expected")
        }
        XCTAssertEqual(error.code, .disabled, "nothing to go back to at the root")
    }

    func testABarButtonItemTapIsAnOrdinaryTap() throws {
        let session = try store.createSession(scene: "repos")
        XCTAssertEqual(send(session, #"{"type":"event","seq":1,"target":"screen-1.rightBarButtonItem","event":"touchUpInside"}"#),
                       #"{"type":"patch","ack":1,"changes":[{"target":"table","prop":"isEditing","value":true}]}"#)
    }
}
