@testable import Bindery
import BinderyTesting
import Foundation
import RxCore
import RxTesting
import RxWidgets
import XCTest

/// A scene that reads a clock on each tap (so a replay would show another time) and
/// keeps what it shows through UIKit-style state restoration.
final class TestClockViewController: ViewController, Scene, StateRestoring {
    let bag = DisposeBag()
    let now = Button()
    let shown = Label()
    let clock: () -> Int

    init(clock: @escaping () -> Int) {
        self.clock = clock
        super.init()
    }

    var sceneWidgets: [(id: String, widget: View)] { [("now", now), ("shown", shown)] }

    override func viewDidLoad() {
        super.viewDidLoad()
        now.rx.tap.map { [clock] in "t=\(clock())" }.bind(to: shown.rx.text).disposed(by: bag)
    }

    func encodeRestorableState(with coder: StateCoder) {
        coder.encode(shown.text, forKey: "shown")
    }

    func decodeRestorableState(with coder: StateCoder) {
        shown.text = coder.decodeObject(forKey: "shown") as? String
    }
}

/// `echo` (replay), `echo-fresh` (none) and `clock` (encoded), with a clock that moves on
/// each read.
func makeClusterRegistry(clock: @escaping () -> Int) -> SceneRegistry {
    let registry = makeTestRegistry()
    registry.register("echo-fresh", restoration: .none) { TestEchoViewController() }
    registry.register("clock", restoration: .encoded) { TestClockViewController(clock: clock) }
    return registry
}

/// Durable sessions on the in-memory store: two `SessionStore`s sharing one
/// `InMemorySessionPersistence` act as two processes. Virtual time (1 tick = 1 s).
final class ClusterSessionTests: XCTestCase {
    var scheduler: TestScheduler!
    var persistence: InMemorySessionPersistence!
    var ticks = 0

    override func setUp() {
        super.setUp()
        scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
        persistence = InMemorySessionPersistence(timeToLive: .seconds(40))
        ticks = 0
    }

    private func makeStore() -> SessionStore {
        SessionStore(registry: makeClusterRegistry { [unowned self] in ticks += 1; return ticks },
                     configuration: SessionStore.Configuration(gracePeriod: .seconds(30), strictBindingErrors: false),
                     scheduler: scheduler, flushScheduler: scheduler, persistence: persistence)
    }

    private func type(_ text: String, seq: Int) -> ClientMessage {
        .event(EventMessage(seq: seq, target: "input", event: "editingChanged", value: .string(text)))
    }

    /// A client recording what it is sent and how it is closed.
    final class Recorder {
        var messages: [ServerMessage] = []
        var closes: [(UInt16, String)] = []
        var client: SessionClient!

        init(_ session: Session) {
            client = session.connect { [unowned self] in messages.append($0) }
            client.closeHandler = { [unowned self] in closes.append(($0, $1)) }
        }

        var acks: [Int] { messages.compactMap { $0.ack } }
        var errorCodes: [String] {
            messages.compactMap { if case .error(let error) = $0 { return error.code.rawValue } else { return nil } }
        }
    }

    private func text(_ session: Session?, _ id: String) -> String? {
        (session?.widget(withID: id) as? Label)?.text ?? (session?.widget(withID: id) as? TextField)?.text
    }

    // MARK: - Write before ack

    func testTheAckWaitsForTheStoreAndAnswersKeepTheirOrder() throws {
        let store = makeStore()
        let session = try store.createSession(scene: "echo")
        let recorder = Recorder(session)
        persistence.holdsReplies = true

        recorder.client.receive(type("a", seq: 1))
        recorder.client.receive(.event(EventMessage(seq: 2, target: "nope", event: "touchUpInside")))
        recorder.client.receive(type("ab", seq: 3))
        XCTAssertEqual(recorder.messages, [], "nothing may be acknowledged before the store has it")
        XCTAssertEqual(persistence.sessions[session.id]?.journal.count, 2, "the refused event is not journaled")

        persistence.releaseReplies()
        XCTAssertEqual(recorder.acks, [1, 2, 3])
        XCTAssertEqual(recorder.errorCodes, ["unknown-target"])
        XCTAssertEqual(persistence.sessions[session.id]?.lastSeq, 3)
        XCTAssertEqual(persistence.sessions[session.id]?.journal.first,
                       #"{"type":"event","seq":1,"target":"input","event":"editingChanged","value":"a"}"#)
    }

    func testPatchesForOtherClientsQueueBehindAWaitingAnswer() throws {
        let store = makeStore()
        let session = try store.createSession(scene: "echo")
        let sender = Recorder(session)
        persistence.holdsReplies = true
        let watcher = Recorder(session)  // an SSE-like second client
        sender.client.receive(type("x", seq: 1))
        XCTAssertEqual(watcher.messages, [], "others see the change only once it is durable")
        persistence.releaseReplies()
        XCTAssertEqual(sender.acks, [1])
        XCTAssertEqual(watcher.messages.count, 1)
    }

    func testTheReplyVariantAnswersAtOnceWithoutAStore() throws {
        let store = SessionStore(registry: makeTestRegistry(), scheduler: scheduler, flushScheduler: scheduler)
        let session = try store.createSession(scene: "echo")
        XCTAssertNil(session.journal)
        var answers: [ServerMessage?] = []
        session.handle(type("q", seq: 7), from: nil) { answers.append($0) }
        XCTAssertEqual(answers.count, 1)
        XCTAssertEqual(answers.first??.ack, 7)
    }

    // MARK: - Takeover and fencing

    func testAnotherStoreTakesOverReplaysTheJournalAndFencesTheOldOwner() throws {
        let storeA = makeStore(), storeB = makeStore()
        let session = try storeA.createSession(scene: "echo")
        let old = Recorder(session)
        old.client.receive(type("hello", seq: 1))
        XCTAssertEqual(old.acks, [1])

        var taken: Result<Session?, SessionError>?
        storeB.session(id: session.id) { taken = $0 }
        let moved = try XCTUnwrap(try XCTUnwrap(taken).get())
        XCTAssertEqual(moved.id, session.id)
        XCTAssertEqual(moved.journal?.epoch, 2)
        XCTAssertEqual(text(moved, "output"), "HELLO", "replayed through the normal event path")
        XCTAssertEqual(text(moved, "input"), "hello")
        XCTAssertTrue(moved.sceneMessage(resumed: true).resumed)

        // The old owner's next write is refused: it answers store-unavailable, drops the
        // session and closes its socket with 4001.
        old.client.receive(type("stale", seq: 2))
        XCTAssertEqual(old.errorCodes, ["store-unavailable"])
        XCTAssertEqual(old.closes.map(\.0), [4001])
        XCTAssertEqual(old.closes.map(\.1), ["session moved"])
        XCTAssertNil(storeA.session(id: session.id))
        XCTAssertEqual(persistence.sessions[session.id]?.journal.count, 1, "the stale write never landed")
        XCTAssertEqual(persistence.sessions[session.id]?.epoch, 2)
    }

    func testAnIdleOldOwnerLearnsOfTheTakeoverFromItsFencedRefresh() throws {
        let storeA = makeStore(), storeB = makeStore()
        let session = try storeA.createSession(scene: "echo")
        let old = Recorder(session)
        storeB.session(id: session.id) { _ in }
        scheduler.advanceTo(11)  // refresh period: min(10, 40 / 3)
        XCTAssertEqual(old.closes.map(\.0), [4001])
        XCTAssertNil(storeA.session(id: session.id))
        XCTAssertNotNil(storeB.session(id: session.id))
        XCTAssertNotNil(persistence.sessions[session.id], "the old owner did not delete the keys")
    }

    func testAResumeOnAStaleOwnerTakesTheSessionBackInsteadOfShowingAnOldState() throws {
        let storeA = makeStore(), storeB = makeStore()
        let session = try storeA.createSession(scene: "echo")
        let onA = Recorder(session)
        onA.client.receive(type("one", seq: 1))
        var onB: Session?
        storeB.session(id: session.id) { onB = try? $0.get() }
        let clientB = Recorder(try XCTUnwrap(onB))
        clientB.client.receive(type("two", seq: 2))
        XCTAssertEqual(text(onB, "output"), "TWO")

        var back: (Session, Bool)?
        storeA.resumeOrCreate(scene: "echo", token: session.id) { back = try? $0.get() }
        XCTAssertTrue(session.isEnded, "A's stale copy was dropped")
        XCTAssertEqual(onA.closes.map(\.0), [4001])
        XCTAssertEqual(back?.1, true)
        XCTAssertFalse(back?.0 === session)
        XCTAssertEqual(text(back?.0, "output"), "TWO", "the state B acknowledged, not A's old one")
        XCTAssertEqual(persistence.sessions[session.id]?.epoch, 3)
    }

    func testResumeOrCreateTakesOverAKnownTokenAndCreatesForAnUnknownOne() throws {
        let storeA = makeStore(), storeB = makeStore()
        let session = try storeA.createSession(scene: "echo")
        var outcome: (Session, Bool)?
        storeB.resumeOrCreate(scene: "echo", token: session.id) { outcome = try? $0.get() }
        XCTAssertEqual(outcome?.0.id, session.id)
        XCTAssertEqual(outcome?.1, true)
        storeB.resumeOrCreate(scene: "echo", token: "unknown-token") { outcome = try? $0.get() }
        XCTAssertNotEqual(outcome?.0.id, "unknown-token")
        XCTAssertEqual(outcome?.1, false)
    }

    func testAResumeWithATokenOfAnotherScenesSessionIsRefusedAndLeavesThatSessionAlone() throws {
        let storeA = makeStore(), storeB = makeStore()
        let session = try storeA.createSession(scene: "echo")
        let owner = Recorder(session)
        owner.client.receive(type("mine", seq: 1))
        var outcome: (Session, Bool)?
        storeB.resumeOrCreate(scene: "clock", token: session.id) { outcome = try? $0.get() }
        XCTAssertEqual(outcome?.1, false, "answered as for an unknown token")
        XCTAssertNotEqual(outcome?.0.id, session.id)
        XCTAssertEqual(outcome?.0.sceneName, "clock")
        XCTAssertNil(storeB.session(id: session.id), "the echo session was not taken over here")
        XCTAssertEqual(persistence.sessions[session.id]?.epoch, 1, "its epoch is untouched")
        // Its owner keeps it: writes are not fenced, its client is not closed.
        owner.client.receive(type("still mine", seq: 2))
        scheduler.advanceTo(11)
        XCTAssertEqual(owner.acks, [1, 2])
        XCTAssertEqual(owner.errorCodes, [])
        XCTAssertTrue(owner.closes.isEmpty)
        XCTAssertFalse(session.isEnded)
        XCTAssertEqual(persistence.sessions[session.id]?.journal.count, 2)
    }

    // MARK: - Restoration modes

    func testEncodedRestorationKeepsTheStateInsteadOfReplaying() throws {
        let storeA = makeStore(), storeB = makeStore()
        let session = try storeA.createSession(scene: "clock")
        let client = Recorder(session)
        client.client.receive(.event(EventMessage(seq: 1, target: "now", event: "touchUpInside")))
        XCTAssertEqual(text(session, "shown"), "t=1")
        XCTAssertEqual(persistence.sessions[session.id]?.state, #"{"shown":"t=1"}"#)
        XCTAssertEqual(persistence.sessions[session.id]?.journal, [], "encoded sessions keep no journal")

        var moved: Session?
        storeB.session(id: session.id) { moved = try? $0.get() }
        XCTAssertEqual(text(moved, "shown"), "t=1", "a replay would have read the clock again (t=2)")
        XCTAssertEqual(ticks, 1)
    }

    func testNoneRestorationMountsAFreshSceneUnderTheSameToken() throws {
        let storeA = makeStore(), storeB = makeStore()
        let session = try storeA.createSession(scene: "echo-fresh")
        let client = Recorder(session)
        client.client.receive(type("gone", seq: 1))
        XCTAssertEqual(client.acks, [1])
        var moved: Session?
        storeB.session(id: session.id) { moved = try? $0.get() }
        XCTAssertEqual(moved?.id, session.id)
        XCTAssertEqual(text(moved, "output"), "")
    }

    func testReplayRestorationIsTheDefault() {
        XCTAssertEqual(makeTestRegistry().scene(named: "echo")?.restoration, .replay)
    }

    // MARK: - Keys at the end

    func testEndedSessionsLeaveNoKeysButAShutdownKeepsThemReleased() throws {
        let store = makeStore()
        let byBye = try store.createSession(scene: "echo")
        let expiring = try store.createSession(scene: "echo")
        let kept = try store.createSession(scene: "echo")
        XCTAssertEqual(persistence.sessions.count, 3)
        _ = byBye.handle(.bye, from: nil)
        XCTAssertNil(persistence.sessions[byBye.id])
        _ = kept.connect { _ in }
        scheduler.advanceTo(31)
        XCTAssertTrue(expiring.isEnded)
        XCTAssertNil(persistence.sessions[expiring.id])

        var drained = false
        store.drain { drained = true }
        store.endAll()
        XCTAssertTrue(drained)
        XCTAssertEqual(persistence.sessions[kept.id]?.owner, "", "released, not deleted: another process takes it over")
    }

    func testDrainingRefusesEventsSoTheClientSendsThemToTheNextServer() throws {
        let store = makeStore()
        let session = try store.createSession(scene: "echo")
        let client = Recorder(session)
        store.drain {}
        client.client.receive(type("late", seq: 1))
        XCTAssertEqual(client.errorCodes, ["store-unavailable"])
        XCTAssertEqual(text(session, "output"), "", "not applied")
    }

    // MARK: - Store trouble

    func testWhileTheStoreIsDownEventsAreRefusedAndNewSessionsToo() throws {
        let store = makeStore()
        let session = try store.createSession(scene: "echo")
        let client = Recorder(session)
        persistence.isAvailable = false
        client.client.receive(type("lost", seq: 1))
        XCTAssertEqual(client.errorCodes, ["store-unavailable"])
        XCTAssertEqual(text(session, "output"), "", "never applied, never acked")
        XCTAssertThrowsError(try store.createSession(scene: "echo")) { error in
            XCTAssertEqual(error as? SessionError, .storeUnavailable)
            XCTAssertEqual((error as? SessionError)?.httpStatus, 503)
        }

        persistence.isAvailable = true
        guard case .scene(let scene)? = client.messages.last else { return XCTFail("a fresh scene once the store is back") }
        XCTAssertTrue(scene.resumed)
        client.client.receive(type("back", seq: 2))
        XCTAssertEqual(client.acks.last, 2)
        XCTAssertEqual(text(session, "output"), "BACK")
    }

    func testASessionWhoseCreationWasLostIsKeptAndRecordedAfreshWhenTheStoreIsBack() throws {
        let store = makeStore()
        persistence.failsNextCreate = true
        let session = try store.createSession(scene: "echo")
        XCTAssertNil(persistence.sessions[session.id])
        let client = Recorder(session)
        client.client.receive(type("early", seq: 1))
        XCTAssertEqual(client.errorCodes, ["store-unavailable"], "not journaled, so not acknowledged")
        XCTAssertFalse(session.isEnded)
        XCTAssertTrue(client.closes.isEmpty, "not closed 4001: a resume here would find nothing elsewhere")

        persistence.isAvailable = false
        persistence.isAvailable = true
        XCTAssertEqual(persistence.sessions[session.id]?.epoch, 1)
        guard case .scene(let scene)? = client.messages.last else { return XCTFail("a fresh scene once it is recorded") }
        XCTAssertTrue(scene.resumed)
        XCTAssertEqual(scene.session, session.id)
        XCTAssertEqual(text(session, "output"), "", "a fresh scene: nothing of it was acknowledged")
        client.client.receive(type("later", seq: 2))
        XCTAssertEqual(client.acks.last, 2)
        XCTAssertEqual(text(session, "output"), "LATER")
        XCTAssertEqual(persistence.sessions[session.id]?.journal.count, 1)
    }

    func testAWriteLostMidwayRebuildsTheSessionFromTheStoreWhenItIsBack() throws {
        let store = makeStore()
        let session = try store.createSession(scene: "echo")
        let client = Recorder(session)
        client.client.receive(type("kept", seq: 1))
        persistence.holdsReplies = true
        client.client.receive(type("kept and more", seq: 2))
        // The store made the write but the reply was lost with the connection: the
        // session is now diverged, and the event is not acknowledged.
        persistence.isAvailable = false
        persistence.releaseReplies(failing: true)
        persistence.holdsReplies = false
        XCTAssertEqual(client.errorCodes, ["store-unavailable"])
        XCTAssertEqual(session.journal?.isDiverged, true)
        client.client.receive(type("refused", seq: 3))
        XCTAssertEqual(client.errorCodes, ["store-unavailable", "store-unavailable"])

        persistence.isAvailable = true
        XCTAssertEqual(session.journal?.isDiverged, false)
        XCTAssertEqual(session.journal?.epoch, 2)
        guard case .scene(let scene)? = client.messages.last else { return XCTFail("the rebuilt scene") }
        XCTAssertTrue(scene.resumed)
        XCTAssertEqual(text(session, "output"), "KEPT AND MORE", "rebuilt from what the store has")
    }

    // MARK: - StateCoder

    func testStateCoderRoundTripsNSCoderStyleValues() throws {
        let coder = StateCoder()
        coder.encode("text", forKey: "s")
        coder.encode(42, forKey: "i")
        coder.encode(true, forKey: "b")
        coder.encode(Date(timeIntervalSince1970: 1_700_000_000), forKey: "d")
        coder.encode(["a", "b"], forKey: "a")
        coder.encode(nil as String?, forKey: "n")
        let back = try XCTUnwrap(StateCoder(json: coder.json))
        XCTAssertEqual(back.decodeObject(forKey: "s") as? String, "text")
        XCTAssertEqual(back.decodeInteger(forKey: "i"), 42)
        XCTAssertTrue(back.decodeBool(forKey: "b"))
        XCTAssertEqual(back.decodeObject(forKey: "d") as? Date, Date(timeIntervalSince1970: 1_700_000_000))
        XCTAssertEqual(back.decodeObject(forKey: "a") as? [String], ["a", "b"])
        XCTAssertTrue(back.containsValue(forKey: "n"))
        XCTAssertNil(back.decodeObject(forKey: "n"))
        XCTAssertFalse(back.containsValue(forKey: "missing"))
        XCTAssertEqual(back.decodeInteger(forKey: "missing"), 0)
        XCTAssertNil(StateCoder(json: "[1]"))
    }

    func testTheJournalEntryIsAClientMessage() {
        let event = EventMessage(seq: 4, target: "table", event: "itemMoved", row: "r1", toSection: "s", toIndex: 2)
        guard case .success(.event(let decoded)) = MessageDecoder.decode(event.journalJSON) else { return XCTFail() }
        XCTAssertEqual(decoded, event)
    }
}
