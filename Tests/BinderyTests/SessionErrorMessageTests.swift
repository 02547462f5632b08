import Bindery
import BinderyTesting
import RxTesting
import RxWidgets
import XCTest

/// What an event that cannot be applied is answered with: the code and a message a
/// person can read.
final class SessionErrorMessageTests: XCTestCase {
    private var store: SessionStore!

    override func setUp() {
        super.setUp()
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
        store = SessionStore(registry: makeTestRegistry(),
                             configuration: SessionStore.Configuration(strictBindingErrors: false),
                             scheduler: scheduler, flushScheduler: scheduler)
    }

    private func error(_ session: Session, _ target: String, _ name: String, _ value: WidgetValue? = nil) -> ErrorMessage? {
        if case .error(let error)? = session.handle(.event(EventMessage(seq: 1, target: target, event: name, value: value))) {
            return error
        }
        return nil
    }

    func testIntegralNumbersPrintWithoutAFraction() throws {
        let session = try store.createSession(scene: "widgets")
        let answer = try XCTUnwrap(error(session, "picker", "valueChanged", .number(42)))
        XCTAssertEqual(answer.code, .badValue)
        XCTAssertTrue(answer.message.hasSuffix("got 42"), answer.message)
        let fraction = try XCTUnwrap(error(session, "picker", "valueChanged", .number(1.5)))
        XCTAssertTrue(fraction.message.hasSuffix("got 1.5"), fraction.message)
    }

    func testAValueEventWithoutAValueIsBadValue() throws {
        let session = try store.createSession(scene: "widgets")
        let slider = try XCTUnwrap(error(session, "slider", "valueChanged"))
        XCTAssertEqual(slider.code, .badValue)
        XCTAssertEqual(slider.target, "slider")
        XCTAssertTrue(slider.message.contains("valueChanged needs a \"value\""), slider.message)
        XCTAssertEqual(error(session, "picker", "valueChanged")?.code, .badValue)
        let echo = try store.createSession(scene: "echo")
        XCTAssertEqual(error(echo, "input", "editingChanged")?.code, .badValue)
        // Events that carry no value still need none.
        XCTAssertNil(error(echo, "input", "editingDidBegin"))
        // And the session goes on.
        if case .patch(let patch)? = session.handle(.event(EventMessage(seq: 2, target: "slider", event: "valueChanged",
                                                                         value: .number(0.5)))) {
            XCTAssertEqual(patch.ack, 2)
        } else {
            XCTFail("expected a patch")
        }
    }
}
