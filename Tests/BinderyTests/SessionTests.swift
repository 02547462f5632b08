import Bindery
import BinderyTesting
import Foundation
import RxCore
import RxTesting
import RxWidgets
import XCTest

/// Sessions driven in-process, in virtual time (TestScheduler: 1 tick = 1 s).
final class SessionTests: XCTestCase {
    var scheduler: TestScheduler!
    var store: SessionStore!

    override func setUp() {
        super.setUp()
        scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
        store = SessionStore(registry: makeTestRegistry(),
                             configuration: SessionStore.Configuration(gracePeriod: .seconds(30), maxSessions: 5,
                                                                       maxSessionsPerAddress: 3, strictBindingErrors: false),
                             scheduler: scheduler, flushScheduler: scheduler)
    }

    private func event(_ seq: Int?, _ target: String, _ name: String, _ value: WidgetValue? = nil) -> ClientMessage {
        .event(EventMessage(seq: seq, target: target, event: name, value: value))
    }

    private func patch(_ answer: ServerMessage?) -> PatchMessage? {
        if case .patch(let patch)? = answer { return patch }
        return nil
    }

    private func errorCode(_ answer: ServerMessage?) -> String? {
        if case .error(let error)? = answer { return error.code.rawValue }
        return nil
    }

    // MARK: - Scene and events

    func testSceneMessageHasEveryWidget() throws {
        let session = try store.createSession(scene: "echo")
        let scene = session.sceneMessage(resumed: false)
        XCTAssertEqual(scene.scene, "echo")
        XCTAssertEqual(scene.session, session.id)
        XCTAssertEqual(scene.widgets.map(\.id), ["input", "output"])
        XCTAssertEqual(scene.widgets.map(\.kind), ["textField", "label"])
        XCTAssertEqual(scene.widgets[1].properties["text"], .string(""))
    }

    func testEventIsAnsweredWithItsChangesButNotTheSendersOwnValue() throws {
        let session = try store.createSession(scene: "echo")
        let answer = session.handle(event(1, "input", "editingChanged", .string("hello 123")))
        XCTAssertEqual(answer, .patch(PatchMessage(ack: 1, changes: [PatchChange(target: "output", prop: "text", value: .string("HELLO 123"))])))
        XCTAssertEqual(MessageEncoder.encode(answer!),
                       #"{"type":"patch","ack":1,"changes":[{"target":"output","prop":"text","value":"HELLO 123"}]}"#)
    }

    func testTheBenchmarkEventWithoutSeqGetsOnePatchWithoutAck() throws {
        let session = try store.createSession(scene: "echo")
        let answer = session.handle(text: #"{"type":"event","target":"input","event":"editingChanged","value":"hello 123"}"#)
        XCTAssertEqual(MessageEncoder.encode(answer!), #"{"type":"patch","changes":[{"target":"output","prop":"text","value":"HELLO 123"}]}"#)
    }

    func testAnEventWithNoChangesGetsAnEmptyPatch() throws {
        let session = try store.createSession(scene: "echo")
        XCTAssertEqual(session.handle(event(4, "input", "editingDidBegin")), .patch(PatchMessage(ack: 4, changes: [])))
    }

    func testClampedValueIsSentBack() throws {
        let session = try store.createSession(scene: "widgets")
        let answer = patch(session.handle(event(2, "slider", "valueChanged", .number(1.5))))
        XCTAssertEqual(answer?.ack, 2)
        XCTAssertEqual(answer?.changes, [
            PatchChange(target: "slider", prop: "value", value: .number(1)),
            PatchChange(target: "valueLabel", prop: "text", value: .string("1.00")),
        ])
        let inRange = patch(session.handle(event(3, "slider", "valueChanged", .number(0.25))))
        XCTAssertEqual(inRange?.changes, [PatchChange(target: "valueLabel", prop: "text", value: .string("0.25"))])
    }

    func testEveryBadInputClassHasItsCode() throws {
        let session = try store.createSession(scene: "widgets")
        XCTAssertEqual(errorCode(session.handle(text: "{nope")), "bad-json")
        XCTAssertEqual(errorCode(session.handle(text: "[]")), "bad-message")
        XCTAssertEqual(errorCode(session.handle(text: #"{"type":"jump"}"#)), "unknown-type")
        XCTAssertEqual(errorCode(session.handle(event(1, "nope", "touchUpInside"))), "unknown-target")
        XCTAssertEqual(errorCode(session.handle(event(2, "boom", "fly"))), "unknown-event")
        XCTAssertEqual(errorCode(session.handle(event(3, "valueLabel", "touchUpInside"))), "unknown-event")
        XCTAssertEqual(errorCode(session.handle(event(4, "boom", "editingChanged"))), "unknown-event")
        XCTAssertEqual(errorCode(session.handle(event(5, "slider", "valueChanged", .string("loud")))), "bad-value")
        XCTAssertEqual(errorCode(session.handle(event(6, "picker", "valueChanged", .number(2)))), "bad-value")
        XCTAssertEqual(errorCode(session.handle(event(7, "off", "touchUpInside"))), "disabled")
        XCTAssertEqual(errorCode(session.handle(event(8, "boom", "touchUpInside"))), "binding-failed")
        // The session goes on.
        XCTAssertEqual(patch(session.handle(event(9, "picker", "valueChanged", .number(-1))))?.ack, 9)
        XCTAssertFalse(session.isEnded)
        XCTAssertEqual(store.metrics.errors[.bindingFailed], 1)
    }

    func testErrorsCarryTheAck() throws {
        let session = try store.createSession(scene: "echo")
        XCTAssertEqual(session.handle(event(11, "nope", "touchUpInside"))?.ack, 11)
        XCTAssertEqual(session.handle(text: #"{"type":"event","seq":12,"target":"input"}"#)?.ack, 12)
    }

    func testBinaryFrameIsAnError() throws {
        let session = try store.createSession(scene: "echo")
        var received: [ServerMessage] = []
        let client = session.connect { received.append($0) }
        client.receiveBinary()
        XCTAssertEqual(received.map { errorCode($0) }, ["binary-not-supported"])
        XCTAssertTrue(client.isConnected)
    }

    func testResyncAnswersWithTheWholeScene() throws {
        let session = try store.createSession(scene: "echo")
        _ = session.handle(event(1, "input", "editingChanged", .string("x")))
        guard case .scene(let scene)? = session.handle(text: #"{"type":"resync","seq":2}"#) else { return XCTFail() }
        XCTAssertTrue(scene.resumed)
        XCTAssertEqual(scene.ack, 2)
        XCTAssertEqual(scene.widgets.first { $0.id == "output" }?.properties["text"], .string("X"))
    }

    // MARK: - Changes from elsewhere

    func testChangesNotCausedByAClientAreCoalescedPerPropertyAndFlushedOnce() throws {
        let session = try store.createSession(scene: "echo")
        var received: [ServerMessage] = []
        _ = session.connect { received.append($0) }
        let output = try XCTUnwrap(session.widget(withID: "output") as? Label)
        output.text = "a"
        output.text = "b"
        output.textColor = .red
        XCTAssertEqual(received, [])
        scheduler.advanceTo(scheduler.clock)
        XCTAssertEqual(received, [.patch(PatchMessage(changes: [
            PatchChange(target: "output", prop: "text", value: .string("b")),
            PatchChange(target: "output", prop: "textColor", value: .color(.red)),
        ]))])
    }

    func testPendingChangesGoOutBeforeAnEventsAnswer() throws {
        let session = try store.createSession(scene: "echo")
        var received: [ServerMessage] = []
        let client = session.connect { received.append($0) }
        (session.widget(withID: "output") as? Label)?.textColor = .blue
        client.receive(event(5, "input", "editingChanged", .string("q")))
        XCTAssertEqual(received.map(\.type), ["patch", "patch"])
        XCTAssertEqual(received[0].ack, nil)
        XCTAssertEqual(received[1].ack, 5)
    }

    // MARK: - Shared scenes

    func testSharedSceneBroadcastsToOthersIncludingTheValue() throws {
        let first = try store.createSession(scene: "board")
        let second = try store.createSession(scene: "board")
        XCTAssertTrue(first.controller === second.controller)
        var firstReceived: [ServerMessage] = []
        var secondReceived: [ServerMessage] = []
        let firstClient = first.connect { firstReceived.append($0) }
        _ = second.connect { secondReceived.append($0) }
        scheduler.advanceTo(scheduler.clock)
        // Viewer counts: both see "2 online".
        XCTAssertEqual(second.widget(withID: "viewers").flatMap { ($0 as? Label)?.text }, "2 online")
        firstReceived = []
        secondReceived = []

        firstClient.receive(event(1, "sharedSlider", "valueChanged", .number(0.75)))
        XCTAssertEqual(firstReceived, [.patch(PatchMessage(ack: 1, changes: []))])
        XCTAssertEqual(secondReceived, [.patch(PatchMessage(changes: [PatchChange(target: "sharedSlider", prop: "value", value: .number(0.75))]))])
    }

    func testANewViewerIsNotSentTheCountItsSceneAlreadyHas() throws {
        let first = try store.createSession(scene: "board")
        var firstReceived: [ServerMessage] = []
        _ = first.connect { firstReceived.append($0) }
        scheduler.advanceTo(scheduler.clock)
        firstReceived = []
        let second = try store.createSession(scene: "board")
        var secondReceived: [ServerMessage] = []
        _ = second.connect { secondReceived.append($0) }
        scheduler.advanceTo(scheduler.clock)
        let viewers = PatchChange(target: "viewers", prop: "text", value: .string("2 online"))
        XCTAssertEqual(firstReceived, [.patch(PatchMessage(changes: [viewers]))])
        XCTAssertEqual(secondReceived, [], "the count is in the newcomer's scene already")
        let scene = second.sceneMessage(resumed: false)
        let label = scene.widgets.first { $0.id == "viewers" }
        XCTAssertEqual(label?.properties["text"], .string("2 online"))
    }

    func testViewerCountFollowsConnections() throws {
        let first = try store.createSession(scene: "board")
        let label = try XCTUnwrap(first.widget(withID: "viewers") as? Label)
        XCTAssertEqual(label.text, "0 online")
        let a = first.connect { _ in }
        let second = try store.createSession(scene: "board")
        let b = second.connect { _ in }
        XCTAssertEqual(label.text, "2 online")
        a.disconnect()
        XCTAssertEqual(label.text, "1 online")
        store.end(second, reason: "deleted")
        XCTAssertFalse(b.isConnected)
        XCTAssertEqual(label.text, "0 online")
    }

    // MARK: - Lifecycle

    func testTokensAreLongRandomAndDistinct() throws {
        let a = try store.createSession(scene: "echo")
        let b = try store.createSession(scene: "echo")
        XCTAssertNotEqual(a.id, b.id)
        XCTAssertEqual(a.id.count, 22)  // 128 bits, base64url
        XCTAssertTrue(a.id.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
    }

    func testSessionExpiresAfterTheGracePeriodAndItsControllerIsReleased() throws {
        var session: Session? = try store.createSession(scene: "echo")
        var deallocated = false
        let bag = DisposeBag()
        session?.controller?.rx.deallocated.subscribe(onNext: { deallocated = true }).disposed(by: bag)
        let id = session!.id
        let client = session!.connect { _ in }
        scheduler.advanceTo(100)
        XCTAssertNotNil(store.session(id: id), "a connected session does not expire")
        client.disconnect()
        scheduler.advanceTo(129)
        XCTAssertNotNil(store.session(id: id), "resumable within the grace period")
        scheduler.advanceTo(130)
        XCTAssertNil(store.session(id: id))
        XCTAssertEqual(session?.endReason, "expired")
        session = nil
        XCTAssertTrue(deallocated, "the view controller was released: its DisposeBag disposed")
    }

    func testResumeWithinGraceKeepsStateAndOtherTokensGetFreshSessions() throws {
        let session = try store.createSession(scene: "echo")
        _ = session.handle(event(1, "input", "editingChanged", .string("keep")))
        let client = session.connect { _ in }
        client.disconnect()
        scheduler.advanceTo(20)
        let (resumed, wasResumed) = try store.resumeOrCreate(scene: "echo", token: session.id)
        XCTAssertTrue(wasResumed)
        XCTAssertTrue(resumed === session)
        XCTAssertEqual((resumed.widget(withID: "output") as? Label)?.text, "KEEP")
        _ = resumed.connect { _ in }
        scheduler.advanceTo(200)
        XCTAssertNotNil(store.session(id: session.id), "the grace timer stopped on resume")

        // A token of another scene, or unknown: a fresh session; the other is untouched.
        let (other, otherResumed) = try store.resumeOrCreate(scene: "widgets", token: session.id)
        XCTAssertFalse(otherResumed)
        XCTAssertFalse(other === session)
        XCTAssertFalse(session.isEnded)
        let (fresh, freshResumed) = try store.resumeOrCreate(scene: "echo", token: "unknown")
        XCTAssertFalse(freshResumed)
        XCTAssertNotEqual(fresh.id, session.id)
    }

    func testExpiredTokenGetsAFreshSession() throws {
        let session = try store.createSession(scene: "echo")
        scheduler.advanceTo(31)
        XCTAssertTrue(session.isEnded)
        let (fresh, resumed) = try store.resumeOrCreate(scene: "echo", token: session.id)
        XCTAssertFalse(resumed)
        XCTAssertNotEqual(fresh.id, session.id)
    }

    func testHTTPActivityRestartsTheGraceTimer() throws {
        let session = try store.createSession(scene: "echo")
        scheduler.advanceTo(25)
        _ = session.handle(event(1, "input", "editingChanged", .string("a")))
        scheduler.advanceTo(50)
        XCTAssertFalse(session.isEnded)
        scheduler.advanceTo(56)
        XCTAssertTrue(session.isEnded)
    }

    func testByeEndsTheSessionAndTellsEveryClient() throws {
        let session = try store.createSession(scene: "echo")
        var first: [ServerMessage] = []
        var second: [ServerMessage] = []
        let a = session.connect { first.append($0) }
        _ = session.connect { second.append($0) }
        a.receive(.bye)
        XCTAssertTrue(session.isEnded)
        XCTAssertEqual(first, [.bye(reason: "bye")])
        XCTAssertEqual(second, [.bye(reason: "bye")])
        XCTAssertNil(store.session(id: session.id))
        XCTAssertEqual(session.handle(.bye), .bye(reason: "bye"))
    }

    func testLimits() throws {
        for _ in 0..<3 { _ = try store.createSession(scene: "echo", clientAddress: "10.0.0.1") }
        XCTAssertThrowsError(try store.createSession(scene: "echo", clientAddress: "10.0.0.1")) {
            XCTAssertEqual($0 as? SessionError, .tooManySessionsForAddress("10.0.0.1"))
        }
        _ = try store.createSession(scene: "echo", clientAddress: "10.0.0.2")
        _ = try store.createSession(scene: "echo")
        XCTAssertThrowsError(try store.createSession(scene: "echo")) { XCTAssertEqual($0 as? SessionError, .tooManySessions) }
        XCTAssertThrowsError(try store.createSession(scene: "nope")) { XCTAssertEqual($0 as? SessionError, .unknownScene("nope")) }
        XCTAssertEqual(store.metrics.sessionsRefused, 2)
    }

    func testRateLimit() throws {
        let limited = SessionStore(registry: makeTestRegistry(),
                                   configuration: SessionStore.Configuration(maxEventsPerSecond: 3, strictBindingErrors: false),
                                   scheduler: scheduler, flushScheduler: scheduler)
        let session = try limited.createSession(scene: "echo")
        let codes = (1...5).map { (n: Int) -> String in
            errorCode(session.handle(event(n, "input", "editingChanged", .string(String(n))))) ?? "ok"
        }
        XCTAssertEqual(codes, ["ok", "ok", "ok", "rate-limited", "rate-limited"])
        scheduler.advanceTo(scheduler.clock + 1)
        XCTAssertNil(errorCode(session.handle(event(6, "input", "editingChanged", .string("6")))))
    }

    func testResyncSpendsTheSameBudgetAsEvents() throws {
        let limited = SessionStore(registry: makeTestRegistry(),
                                   configuration: SessionStore.Configuration(maxEventsPerSecond: 2, strictBindingErrors: false),
                                   scheduler: scheduler, flushScheduler: scheduler)
        let session = try limited.createSession(scene: "echo")
        XCTAssertNil(errorCode(session.handle(.resync(seq: 1))))
        XCTAssertNil(errorCode(session.handle(event(2, "input", "editingChanged", .string("a")))))
        let refused = session.handle(.resync(seq: 3))
        XCTAssertEqual(errorCode(refused), "rate-limited")
        XCTAssertEqual(refused?.ack, 3)
        scheduler.advanceTo(scheduler.clock + 1)
        if case .scene? = session.handle(.resync(seq: 4)) {} else { XCTFail("resync refused after a second") }
    }

    func testASceneThatFailsToBuildIsAnError() {
        let registry = SceneRegistry()
        registry.register("broken") { () throws -> ViewController in throw TestBoom() }
        let store = SessionStore(registry: registry, scheduler: scheduler, flushScheduler: scheduler)
        XCTAssertThrowsError(try store.createSession(scene: "broken")) {
            guard case .sceneFailed? = $0 as? SessionError else { return XCTFail("\($0)") }
        }
    }
}
