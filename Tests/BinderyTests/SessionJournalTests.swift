@testable import Bindery
import Foundation
import RxCore
import RxTesting
import RxWidgets
import XCTest

/// Counts taps; replayed by default, and able to encode its count, so its journal can be
/// compacted into the encoded state at the cap.
final class TestCounterViewController: ViewController, Scene, StateRestoring {
    let bag = DisposeBag()
    let plus = Button()
    let shown = Label()
    private var count = 0

    var sceneWidgets: [(id: String, widget: View)] { [("plus", plus), ("shown", shown)] }

    override func viewDidLoad() {
        super.viewDidLoad()
        plus.rx.tap.subscribe(onNext: { [unowned self] in
            count += 1
            shown.text = "n=\(count)"
        }).disposed(by: bag)
    }

    func encodeRestorableState(with coder: StateCoder) {
        coder.encode(count, forKey: "count")
    }

    func decodeRestorableState(with coder: StateCoder) {
        count = coder.decodeInteger(forKey: "count")
        shown.text = "n=\(count)"
    }
}

/// The journal's cap on the in-memory store (two `SessionStore`s sharing it act as two
/// processes): compaction into the encoded state, or a session marked not restorable
/// that a takeover mounts fresh and says so.
final class SessionJournalTests: XCTestCase {
    var scheduler: TestScheduler!
    var persistence: InMemorySessionPersistence!

    override func setUp() {
        super.setUp()
        scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
        persistence = InMemorySessionPersistence(timeToLive: .seconds(40))
    }

    private func makeStore() -> SessionStore {
        let registry = makeTestRegistry()
        registry.register("counter") { TestCounterViewController() }
        return SessionStore(registry: registry,
                            configuration: SessionStore.Configuration(gracePeriod: .seconds(30), strictBindingErrors: false),
                            scheduler: scheduler, flushScheduler: scheduler, persistence: persistence)
    }

    private func takeOver(_ token: String, on store: SessionStore) throws -> Session {
        var taken: Result<Session?, SessionError>?
        store.session(id: token) { taken = $0 }
        return try XCTUnwrap(try XCTUnwrap(taken).get())
    }

    private func text(_ session: Session, _ id: String) -> String? {
        (session.widget(withID: id) as? Label)?.text ?? (session.widget(withID: id) as? TextField)?.text
    }

    /// Handles `text` as the HTTP API does (journaled before the answer).
    private func send(_ text: String, to session: Session) {
        var answered = false
        session.handle(text: text, from: nil) { _ in answered = true }
        XCTAssertTrue(answered, "answered at once by the in-memory store")
    }

    private func encoded(_ message: SceneMessage) -> String {
        MessageEncoder.encode(.scene(message))
    }

    func testAJournalUpToTheCapIsReplayedWhole() throws {
        let storeA = makeStore(), storeB = makeStore()
        let session = try storeA.createSession(scene: "echo")
        for seq in 1...SessionJournal.maxLength {
            send(#"{"type":"event","seq":\#(seq),"target":"input","event":"editingChanged","value":"v\#(seq)"}"#, to: session)
        }
        XCTAssertEqual(persistence.sessions[session.id]?.journal.count, SessionJournal.maxLength)
        let moved = try takeOver(session.id, on: storeB)
        XCTAssertEqual(text(moved, "output"), "V\(SessionJournal.maxLength)")
        XCTAssertFalse(encoded(moved.sceneMessage(resumed: true)).contains("restored"), "restored as usual: nothing said")
    }

    func testAtTheCapAFormIsCompactedIntoItsControlsValuesAndATakeoverSaysItIsNotExact() throws {
        let storeA = makeStore(), storeB = makeStore()
        let session = try storeA.createSession(scene: "echo")
        let count = SessionJournal.maxLength + 5
        var answers: [ServerMessage?] = []
        for seq in 1...count {
            session.handle(text: #"{"type":"event","seq":\#(seq),"target":"input","event":"editingChanged","value":"v\#(seq)"}"#,
                           from: nil) { answers.append($0) }
        }
        XCTAssertEqual(answers.compactMap { $0?.ack }, Array(1...count), "every event acknowledged")
        let stored = try XCTUnwrap(persistence.sessions[session.id])
        XCTAssertEqual(stored.journal.count, 4, "only the events after the compaction")
        XCTAssertTrue(stored.state?.contains(#""text":"v1001""#) == true, "the controls' values at the cap: \(stored.state ?? "")")
        XCTAssertTrue(stored.state?.hasSuffix(#","coder":null}"#) == true, "echo encodes no state of its own")
        XCTAssertEqual(stored.lastSeq, count)

        let moved = try takeOver(session.id, on: storeB)
        XCTAssertEqual(moved.id, session.id, "the same token")
        XCTAssertEqual(text(moved, "input"), "v\(count)")
        XCTAssertEqual(text(moved, "output"), "V\(count)", "the value put back as user input, then the rest replayed")
        let scene = encoded(moved.sceneMessage(resumed: true))
        XCTAssertTrue(scene.contains(#""resumed":true,"restored":false"#), "rebuilt from its controls only: \(scene.prefix(200))")

        // Said until the next accepted event.
        send(#"{"type":"event","seq":1,"target":"input","event":"editingChanged","value":"again"}"#, to: moved)
        XCTAssertFalse(encoded(moved.sceneMessage(resumed: true)).contains("restored"))
        XCTAssertEqual(persistence.sessions[session.id]?.journal.count, 5)
    }

    func testAJournalTheStoreMarkedNotRestorableIsMountedFreshAndSaysSo() throws {
        // A safety net: compaction keeps the journal under the cap, but the store enforces it too.
        let storeA = makeStore(), storeB = makeStore()
        let session = try storeA.createSession(scene: "echo")
        let epoch = try XCTUnwrap(session.journal?.epoch)
        for seq in 1...(SessionJournal.maxLength + 1) {
            persistence.append(token: session.id, epoch: epoch, seq: seq,
                               event: #"{"type":"event","seq":\#(seq),"target":"input","event":"editingChanged","value":"v"}"#,
                               state: nil) { _ in }
        }
        XCTAssertEqual(persistence.sessions[session.id]?.journal, [], "dropped, not kept growing")
        XCTAssertEqual(persistence.sessions[session.id]?.isRestorable, false)

        let moved = try takeOver(session.id, on: storeB)
        XCTAssertEqual(text(moved, "output"), "", "a fresh mount")
        XCTAssertTrue(encoded(moved.sceneMessage(resumed: true)).contains(#""restored":false"#))
        XCTAssertEqual(persistence.sessions[session.id]?.isRestorable, true, "restorable again from the fresh mount")
        send(#"{"type":"event","seq":1,"target":"input","event":"editingChanged","value":"again"}"#, to: moved)
        let back = try takeOver(session.id, on: storeA)
        XCTAssertEqual(text(back, "output"), "AGAIN")
    }

    func testAReplaySceneThatEncodesItsStateIsCompactedAtTheCapAndRestoredExactly() throws {
        let storeA = makeStore(), storeB = makeStore()
        let session = try storeA.createSession(scene: "counter")
        let taps = SessionJournal.maxLength + 6
        for seq in 1...taps {
            send(#"{"type":"event","seq":\#(seq),"target":"plus","event":"touchUpInside"}"#, to: session)
        }
        XCTAssertEqual(text(session, "shown"), "n=\(taps)")
        let stored = try XCTUnwrap(persistence.sessions[session.id])
        XCTAssertTrue(stored.state?.hasSuffix(#""coder":{"count":\#(SessionJournal.maxLength + 1)}}"#) == true,
                      "the state after the event at the cap: \(stored.state ?? "")")
        XCTAssertEqual(stored.journal.count, 5, "only the events after it")

        let moved = try takeOver(session.id, on: storeB)
        XCTAssertEqual(text(moved, "shown"), "n=\(taps)", "decoded, then the rest replayed")
        XCTAssertFalse(encoded(moved.sceneMessage(resumed: true)).contains("restored"), "exact: nothing said")
    }
}
