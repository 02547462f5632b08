@testable import Bindery
import BinderyTesting
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

    func testASceneWithoutEncodedStateKeepsItsWholeJournalPastTheCap() throws {
        // Nothing else could rebuild what its events did: dropping them would lose acknowledged input.
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
        XCTAssertEqual(stored.journal.count, count, "not compacted")
        XCTAssertNil(stored.state)

        let moved = try takeOver(session.id, on: storeB)
        XCTAssertEqual(moved.id, session.id, "the same token")
        XCTAssertEqual(text(moved, "output"), "V\(count)", "every event replayed")
        XCTAssertFalse(encoded(moved.sceneMessage(resumed: true)).contains("restored"), "exact: nothing said")
    }

    func testACompactedStateThatCannotBeReadIsSaidNotExact() throws {
        let storeA = makeStore(), storeB = makeStore()
        let session = try storeA.createSession(scene: "counter")
        send(#"{"type":"event","seq":1,"target":"plus","event":"touchUpInside"}"#, to: session)
        let epoch = try XCTUnwrap(session.journal?.epoch)
        persistence.append(token: session.id, epoch: epoch, seq: 1, event: nil, state: "{not json") { _ in }
        XCTAssertEqual(persistence.sessions[session.id]?.journal, [], "the state replaced the journal")

        let moved = try takeOver(session.id, on: storeB)
        XCTAssertTrue(encoded(moved.sceneMessage(resumed: true)).contains(#""resumed":true,"restored":false"#))
        send(#"{"type":"event","seq":2,"target":"plus","event":"touchUpInside"}"#, to: moved)
        XCTAssertFalse(encoded(moved.sceneMessage(resumed: true)).contains("restored"), "said until the next accepted event")
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
