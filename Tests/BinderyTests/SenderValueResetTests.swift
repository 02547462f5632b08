import Bindery
import BinderyTesting
import RxCore
import RxTesting
import RxWidgets
import XCTest

/// A handler that puts the sender's value back to what it was before the event (a chat or
/// to-do field cleared on Return) must still tell the sender, which shows what it sent.
final class SenderValueResetTests: XCTestCase {
    private final class ClearOnReturnViewController: ViewController {
        let bag = DisposeBag()
        let field = TextField()
        let sent = Label()

        override func viewDidLoad() {
            super.viewDidLoad()
            field.rx.controlEvent(.editingDidEndOnExit)
                .subscribe(onNext: { [weak self] in
                    guard let self else { return }
                    sent.text = field.text
                    field.text = ""
                })
                .disposed(by: bag)
        }
    }

    private func session() throws -> Session {
        let registry = SceneRegistry()
        registry.register("chat") { ClearOnReturnViewController() }
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
        let store = SessionStore(registry: registry, scheduler: scheduler, flushScheduler: scheduler)
        return try store.createSession(scene: "chat")
    }

    private func event(_ seq: Int, _ name: String, _ value: String) -> ClientMessage {
        .event(EventMessage(seq: seq, target: "field", event: name, value: .string(value)))
    }

    func testAValueResetToItsOldValueIsSentToTheSender() throws {
        let session = try session()
        XCTAssertEqual(session.handle(event(1, "editingDidEndOnExit", "hello")), .patch(PatchMessage(ack: 1, changes: [
            PatchChange(target: "sent", prop: "text", value: .string("hello")),
            PatchChange(target: "field", prop: "text", value: .string("")),
        ])))
    }

    func testAnUnchangedValueIsStillNotEchoed() throws {
        let session = try session()
        XCTAssertEqual(session.handle(event(1, "editingChanged", "hi")), .patch(PatchMessage(ack: 1, changes: [])))
        XCTAssertEqual(session.handle(event(2, "editingDidEnd", "hi")), .patch(PatchMessage(ack: 2, changes: [])))
    }
}
