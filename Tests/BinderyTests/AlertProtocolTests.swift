import Bindery
import BinderyTesting
import Foundation
import RxCore
import RxTesting
import RxWidgets
import XCTest

/// A button that asks for a name in an alert; OK is enabled once something is typed,
/// and writes a greeting; Cancel writes "cancelled".
private final class RenameViewController: ViewController, Scene {
    let bag = DisposeBag()
    let rename = Button()
    let greeting = Label()

    override func viewDidLoad() {
        super.viewDidLoad()
        rename.rx.tap.subscribe(onNext: { [unowned self] in self.ask() }).disposed(by: bag)
    }

    private func ask() {
        let alert = AlertController(title: "Your name", message: nil, preferredStyle: .alert)
        alert.addTextField { $0.placeholder = "Name" }
        alert.addAction(AlertAction(title: "Cancel", style: .cancel) { [unowned self] _ in
            self.greeting.text = "cancelled"
        })
        let ok = AlertAction(title: "OK", style: .default) { [unowned self, unowned alert] _ in
            self.greeting.text = "Hello, \(alert.textFields?.first?.text ?? "")"
        }
        ok.isEnabled = false
        alert.addAction(ok)
        alert.textFields![0].rx.text.orEmpty.map { !$0.isEmpty }
            .subscribe(onNext: { ok.isEnabled = $0 })
            .disposed(by: bag)
        present(alert, animated: true)
    }

    var sceneWidgets: [(id: String, widget: View)] { [("rename", rename), ("greeting", greeting)] }
}

/// Alerts over the real message path: presented in `added`, chosen by `actionTriggered`,
/// gone in `removed`.
final class AlertProtocolTests: XCTestCase {
    private var store: SessionStore!

    override func setUp() {
        super.setUp()
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
        let registry = SceneRegistry()
        registry.register("rename", title: "Rename") { RenameViewController() }
        store = SessionStore(registry: registry,
                             configuration: SessionStore.Configuration(gracePeriod: .seconds(30), maxSessions: 5,
                                                                       maxSessionsPerAddress: 3, strictBindingErrors: false),
                             scheduler: scheduler, flushScheduler: scheduler)
    }

    private func send(_ session: Session, _ json: String) -> String {
        MessageEncoder.encode(session.handle(text: json)!)
    }

    func testAnAlertIsAddedChosenAndRemoved() throws {
        let session = try store.createSession(scene: "rename")
        XCTAssertEqual(send(session, #"{"type":"event","seq":1,"target":"rename","event":"touchUpInside"}"#),
                       #"{"type":"patch","ack":1,"added":[{"id":"alertController-1","kind":"alertController","props":{"actions":[{"id":"0","style":"cancel","title":"Cancel"},{"id":"1","isEnabled":false,"style":"default","title":"OK"}],"alpha":1,"backgroundColor":null,"isHidden":false,"message":null,"preferredStyle":"alert","textFields":["textField-2"],"title":"Your name"}},{"id":"textField-2","kind":"textField","props":{"alpha":1,"backgroundColor":null,"focused":false,"isEnabled":true,"isHidden":false,"isSecureTextEntry":false,"placeholder":"Name","text":""}}],"changes":[]}"#)

        // A resync shows it too, after the scene's own widgets.
        guard case .scene(let scene)? = session.handle(text: #"{"type":"resync"}"#) else { return XCTFail("scene expected") }
        XCTAssertEqual(scene.widgets.map(\.id), ["rename", "greeting", "alertController-1", "textField-2"])

        // Typing enables OK (an ordinary text field event; own value not echoed).
        XCTAssertEqual(send(session, #"{"type":"event","seq":2,"target":"textField-2","event":"editingChanged","value":"Ada"}"#),
                       #"{"type":"patch","ack":2,"changes":[{"target":"alertController-1","prop":"actions","ops":[{"op":"update","index":1,"row":{"id":"1","style":"default","title":"OK"}}]}]}"#)

        XCTAssertEqual(send(session, #"{"type":"event","seq":3,"target":"alertController-1","event":"actionTriggered","action":1}"#),
                       #"{"type":"patch","ack":3,"removed":["textField-2","alertController-1"],"changes":[{"target":"greeting","prop":"text","value":"Hello, Ada"}]}"#)
        XCTAssertNil(session.widget(withID: "alertController-1"))
    }

    /// The scene host is the presentation host: an alert over an alert, and dismissing
    /// from the root removes both.
    func testAnAlertOverAnAlertAndDismissingFromTheRootRemovesBoth() throws {
        let session = try store.createSession(scene: "rename")
        let root = try XCTUnwrap(session.controller as? RenameViewController)
        let first = AlertController(title: "First", message: nil, preferredStyle: .alert)
        root.present(first, animated: false)
        let second = AlertController(title: "Second", message: nil, preferredStyle: .alert)
        first.present(second, animated: false)
        XCTAssertTrue(root.presentedViewController === first)
        XCTAssertTrue(second.presentingViewController === first)
        XCTAssertNotNil(session.widget(withID: "alertController-1"))
        XCTAssertNotNil(session.widget(withID: "alertController-2"))

        root.dismiss(animated: false)
        XCTAssertNil(root.presentedViewController)
        XCTAssertNil(first.presentationHost)
        XCTAssertNil(second.presentationHost)
        XCTAssertNil(session.widget(withID: "alertController-1"))
        XCTAssertNil(session.widget(withID: "alertController-2"))
        XCTAssertNotNil(root.presentationHost, "the root still presents through its scene")
    }

    func testEscapeIsTheCancelActionAndTextsMayComeWithTheChoice() throws {
        let session = try store.createSession(scene: "rename")
        _ = send(session, #"{"type":"event","seq":1,"target":"rename","event":"touchUpInside"}"#)
        XCTAssertEqual(send(session, #"{"type":"event","seq":2,"target":"alertController-1","event":"actionTriggered","action":0,"value":["Bob"]}"#),
                       #"{"type":"patch","ack":2,"removed":["textField-2","alertController-1"],"changes":[{"target":"greeting","prop":"text","value":"cancelled"}]}"#)
        // The next alert gets new ids.
        XCTAssertTrue(send(session, #"{"type":"event","seq":3,"target":"rename","event":"touchUpInside"}"#)
            .contains(#""added":[{"id":"alertController-3""#))
    }

    func testBadAlertEventsGetStableCodes() throws {
        let session = try store.createSession(scene: "rename")
        _ = send(session, #"{"type":"event","seq":1,"target":"rename","event":"touchUpInside"}"#)
        func code(_ json: String) -> String {
            guard case .error(let error)? = session.handle(text: json) else { return "no error" }
            return "\(error.ack.map(String.init) ?? "-") \(error.code.rawValue)"
        }
        XCTAssertEqual(code(#"{"type":"event","seq":2,"target":"alertController-1","event":"actionTriggered","action":5}"#), "2 unknown-action")
        XCTAssertEqual(code(#"{"type":"event","seq":3,"target":"alertController-1","event":"actionTriggered","action":1}"#), "3 disabled")
        XCTAssertEqual(code(#"{"type":"event","seq":4,"target":"alertController-1","event":"actionTriggered","action":"OK"}"#), "4 bad-message")
        XCTAssertEqual(code(#"{"type":"event","seq":5,"target":"alertController-1","event":"actionTriggered","action":0,"value":["a","b"]}"#), "5 bad-value")
        _ = send(session, #"{"type":"event","seq":6,"target":"alertController-1","event":"actionTriggered","action":0}"#)
        XCTAssertEqual(code(#"{"type":"event","seq":7,"target":"alertController-1","event":"actionTriggered","action":0}"#), "7 unknown-target",
                       "a dismissed alert is gone")
    }

    func testAnAlertPresentedByATimerGoesOutInAPushedPatch() throws {
        let session = try store.createSession(scene: "rename")
        var pushed: [String] = []
        let client = session.connect { pushed.append(MessageEncoder.encode($0)) }
        let controller = session.controller as! RenameViewController
        let alert = AlertController(title: "Hi", message: nil, preferredStyle: .actionSheet)
        alert.addAction(AlertAction(title: "OK", style: .default))
        controller.present(alert, animated: true)
        session.flush()
        XCTAssertEqual(pushed.count, 1)
        XCTAssertTrue(pushed[0].hasPrefix(#"{"type":"patch","added":[{"id":"alertController-1","kind":"alertController""#), pushed[0])
        controller.dismiss(animated: true)
        session.flush()
        XCTAssertEqual(pushed.last, #"{"type":"patch","removed":["alertController-1"],"changes":[]}"#)
        client.disconnect()
    }
}
