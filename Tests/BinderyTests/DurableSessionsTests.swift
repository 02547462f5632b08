@testable import Bindery
import BinderyTesting
import Foundation
import RxCore
import RxTesting
import RxWidgets
import XCTest

/// An ``InMemorySessionPersistence`` whose creations and takeovers can be held (the
/// store is slow): counts them, and answers them on ``answerCreates(losing:)`` and
/// ``answerTakeovers()``.
final class HeldPersistence: SessionPersistence {
    let inner: InMemorySessionPersistence
    var holdsCreates = false
    var holdsTakeovers = false
    private(set) var creates = 0
    private(set) var takeOvers = 0
    private var heldCreates: [(StoredSession, (Result<Void, SessionPersistenceError>) -> Void)] = []
    private var heldTakeovers: [() -> Void] = []

    init(_ inner: InMemorySessionPersistence) {
        self.inner = inner
    }

    var isAvailable: Bool { inner.isAvailable }
    var onAvailabilityChange: ((Bool) -> Void)? {
        get { inner.onAvailabilityChange }
        set { inner.onAvailabilityChange = newValue }
    }
    var timeToLive: Duration { inner.timeToLive }
    func start() {}
    func stop(completion: @escaping () -> Void) { inner.stop(completion: completion) }

    func create(_ session: StoredSession, completion: @escaping (Result<Void, SessionPersistenceError>) -> Void) {
        creates += 1
        guard holdsCreates else { return inner.create(session, completion: completion) }
        heldCreates.append((session, completion))
    }

    /// Answers the held creations: made, or (`losing`) lost before they were made.
    func answerCreates(losing: Bool = false) {
        let held = heldCreates
        heldCreates = []
        for (session, completion) in held {
            if losing {
                completion(.failure(.unavailable("lost")))
            } else {
                inner.create(session, completion: completion)
            }
        }
    }

    func takeOver(token: String, scene: String?, completion: @escaping (Result<StoredSession?, SessionPersistenceError>) -> Void) {
        takeOvers += 1
        guard holdsTakeovers else { return inner.takeOver(token: token, scene: scene, completion: completion) }
        heldTakeovers.append { [inner] in inner.takeOver(token: token, scene: scene, completion: completion) }
    }

    /// Makes the held takeovers and answers them.
    func answerTakeovers() {
        let held = heldTakeovers
        heldTakeovers = []
        for takeOver in held { takeOver() }
    }

    func append(token: String, epoch: Int64, seq: Int?, event: String?, state: String?,
                completion: @escaping (Result<Void, SessionPersistenceError>) -> Void) {
        inner.append(token: token, epoch: epoch, seq: seq, event: event, state: state, completion: completion)
    }

    func refresh(token: String, epoch: Int64, completion: @escaping (Result<Void, SessionPersistenceError>) -> Void) {
        inner.refresh(token: token, epoch: epoch, completion: completion)
    }

    func release(token: String, epoch: Int64, completion: @escaping (Result<Void, SessionPersistenceError>) -> Void) {
        inner.release(token: token, epoch: epoch, completion: completion)
    }

    func delete(token: String, epoch: Int64, completion: @escaping (Result<Void, SessionPersistenceError>) -> Void) {
        inner.delete(token: token, epoch: epoch, completion: completion)
    }
}

/// The durable states end to end: real ``SessionStore``s sharing one
/// ``InMemorySessionPersistence`` act as processes; virtual time (1 tick = 1 s).
final class DurableSessionsTests: XCTestCase {
    var scheduler: TestScheduler!
    var persistence: InMemorySessionPersistence!

    override func setUp() {
        super.setUp()
        scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
        persistence = InMemorySessionPersistence(timeToLive: .seconds(40))
    }

    private func makeStore(_ backing: SessionPersistence? = nil) -> SessionStore {
        SessionStore(registry: makeTestRegistry(),
                     configuration: SessionStore.Configuration(gracePeriod: .seconds(30), strictBindingErrors: false),
                     scheduler: scheduler, flushScheduler: scheduler, persistence: backing ?? persistence)
    }

    private func state(_ store: SessionStore, _ token: String) -> DurableSessionState? {
        store.durableSessions?.machine.state(of: token)
    }

    private func type(_ text: String, seq: Int) -> ClientMessage {
        .event(EventMessage(seq: seq, target: "input", event: "editingChanged", value: .string(text)))
    }

    private func failure<T>(_ result: Result<T, SessionError>?) -> SessionError? {
        if case .failure(let error)? = result { return error }
        return nil
    }

    private func output(_ session: Session?) -> String? {
        (session?.widget(withID: "output") as? Label)?.text
    }

    func testATakeoverByAnotherStoreMovesTheSessionAndFencesTheFirst() throws {
        let storeA = makeStore(), storeB = makeStore()
        let session = try storeA.createSession(scene: "echo")
        var closes: [UInt16] = []
        let client = session.connect { _ in }
        client.closeHandler = { code, _ in closes.append(code) }
        client.receive(type("mine", seq: 1))
        XCTAssertNil(state(storeA, session.id), "recorded: nothing in flight")

        var taken: Session?
        storeB.session(id: session.id) { taken = try? $0.get() }
        XCTAssertEqual(taken?.journal?.epoch, 2)
        XCTAssertEqual(output(taken), "MINE")
        XCTAssertNil(state(storeB, session.id), "the takeover is over")
        XCTAssertTrue(closes.isEmpty, "A does not know yet")

        scheduler.advanceTo(11)  // A's whole-round refresh is fenced
        XCTAssertEqual(closes, [4001])
        XCTAssertTrue(session.isEnded)
        XCTAssertNil(storeA.session(id: session.id))
        XCTAssertEqual(persistence.sessions[session.id]?.epoch, 2, "moved: the keys are B's, not deleted")
    }

    func testConcurrentTakeoversOfOneTokenShareOnePersistenceCall() throws {
        let storeA = makeStore()
        let held = HeldPersistence(persistence)
        let storeB = makeStore(held)
        let session = try storeA.createSession(scene: "echo")
        let client = session.connect { _ in }
        client.receive(type("once", seq: 1))
        held.holdsTakeovers = true

        var lookups: [Session?] = []
        var resumed: (session: Session, resumed: Bool)?
        storeB.session(id: session.id) { lookups.append(try? $0.get()) }
        storeB.session(id: session.id) { lookups.append(try? $0.get()) }
        storeB.resumeOrCreate(scene: "echo", token: session.id) { resumed = try? $0.get() }
        XCTAssertEqual(held.takeOvers, 1)
        guard case .takingOver(let waiters)? = state(storeB, session.id) else { return XCTFail("a takeover in flight") }
        XCTAssertEqual(waiters.count, 3)
        XCTAssertTrue(lookups.isEmpty)
        XCTAssertNil(resumed)

        held.answerTakeovers()
        XCTAssertEqual(lookups.count, 2)
        let moved = try XCTUnwrap(lookups.first ?? nil)
        XCTAssertTrue((lookups.last ?? nil) === moved)
        XCTAssertTrue(resumed?.session === moved)
        XCTAssertEqual(resumed?.resumed, true)
        XCTAssertEqual(output(moved), "ONCE")
        XCTAssertEqual(storeB.sessionCount, 1)
        XCTAssertEqual(persistence.sessions[session.id]?.epoch, 2, "raised once")
        XCTAssertNil(state(storeB, session.id))
    }

    func testAStoreLostAtCreationLeavesTheSessionUnrecordedUntilItIsBack() throws {
        let store = makeStore()
        persistence.failsNextCreate = true
        let session = try store.createSession(scene: "echo")
        XCTAssertEqual(state(store, session.id), .unrecorded)
        XCTAssertEqual(session.journal?.isDiverged, true)
        XCTAssertNil(persistence.sessions[session.id])

        persistence.isAvailable = false
        XCTAssertEqual(store.durableSessions?.mode, .unavailable)
        XCTAssertThrowsError(try store.createSession(scene: "echo")) { error in
            XCTAssertEqual(error as? SessionError, .storeUnavailable)
        }
        XCTAssertEqual(state(store, session.id), .unrecorded)

        persistence.isAvailable = true
        XCTAssertEqual(store.durableSessions?.mode, .available)
        XCTAssertNil(state(store, session.id), "recorded")
        XCTAssertEqual(persistence.sessions[session.id]?.epoch, 1)
        XCTAssertEqual(session.journal?.isDiverged, false)
    }

    func testANewSessionIsHandedOutOnlyOnceRecorded() throws {
        let held = HeldPersistence(persistence)
        let store = makeStore(held)
        held.holdsCreates = true

        var first: Result<(session: Session, resumed: Bool), SessionError>?
        store.resumeOrCreate(scene: "echo", token: nil) { first = $0 }
        XCTAssertNil(first, "not before the store has its record")
        let made = try XCTUnwrap(store.sessions.first)
        guard case .creating(let waiters)? = state(store, made.id) else { return XCTFail("a record in flight") }
        XCTAssertEqual(waiters.count, 1)
        held.answerCreates()
        XCTAssertTrue(try XCTUnwrap(first).get().session === made)
        XCTAssertNil(state(store, made.id))

        var second: Result<(session: Session, resumed: Bool), SessionError>?
        store.resumeOrCreate(scene: "echo", token: nil) { second = $0 }
        let lost = try XCTUnwrap(store.sessions.first { $0 !== made })
        held.answerCreates(losing: true)
        XCTAssertEqual(failure(second), .storeUnavailable)
        XCTAssertTrue(lost.isEnded, "its token would be found nowhere else")
        XCTAssertNil(state(store, lost.id))
        XCTAssertEqual(held.creates, 2)
    }

    func testDeletionsAreKeptWhileTheStoreIsUnavailableThenRetriedFenced() throws {
        let storeA = makeStore(), storeB = makeStore()  // B hears the store come back; A retries on its tick
        let byBye = try storeA.createSession(scene: "echo")
        let expiring = try storeA.createSession(scene: "echo")
        let movedAway = try storeA.createSession(scene: "echo")
        _ = byBye.connect { _ in }
        var onB: Session?
        storeB.session(id: movedAway.id) { onB = try? $0.get() }
        _ = try XCTUnwrap(onB).connect { _ in }  // kept on B past the grace period

        persistence.isAvailable = false
        storeA.end(byBye, reason: "bye")
        storeA.end(movedAway, reason: "bye")  // A's stale copy: its epoch is 1, the store's 2
        scheduler.advanceTo(31)  // the grace period (no client)
        XCTAssertTrue(expiring.isEnded)
        XCTAssertEqual(storeA.durableSessions?.machine.pendingDeletes.map(\.token), [byBye.id, movedAway.id, expiring.id])
        XCTAssertNotNil(persistence.sessions[byBye.id])
        XCTAssertNotNil(persistence.sessions[expiring.id])

        persistence.isAvailable = true
        XCTAssertNotNil(persistence.sessions[byBye.id], "A did not hear it: it retries on its next tick")
        scheduler.advanceTo(33)
        XCTAssertEqual(storeA.durableSessions?.machine.pendingDeletes.map(\.token), [])
        XCTAssertNil(persistence.sessions[byBye.id])
        XCTAssertNil(persistence.sessions[expiring.id])
        XCTAssertEqual(persistence.sessions[movedAway.id]?.epoch, 2, "fenced: the session B took keeps its keys")
    }

    func testTheDrainRefusesNewSessionsAndTakeoversAndStopsTheRefresh() throws {
        let store = makeStore()
        let kept = try store.createSession(scene: "echo")
        let before = persistence.writes
        scheduler.advanceTo(2)  // a tick: the idle session is refreshed
        XCTAssertGreaterThan(persistence.writes, before)

        var drained = false
        store.drain { drained = true }
        XCTAssertTrue(drained)
        XCTAssertTrue(store.isDraining)
        XCTAssertEqual(store.durableSessions?.mode, .draining)
        XCTAssertThrowsError(try store.createSession(scene: "echo")) { error in
            XCTAssertEqual(error as? SessionError, .storeUnavailable)
        }
        var created: Result<(session: Session, resumed: Bool), SessionError>?
        store.resumeOrCreate(scene: "echo", token: nil) { created = $0 }
        XCTAssertEqual(failure(created), .storeUnavailable)
        var lookup: Result<Session?, SessionError>?
        store.session(id: "unknownAAAAAAAAAAAAAAA") { lookup = $0 }
        XCTAssertEqual(failure(lookup), .storeUnavailable)

        let drainedWrites = persistence.writes
        scheduler.advanceTo(12)
        XCTAssertEqual(persistence.writes, drainedWrites, "no refresh after the drain")
        XCTAssertFalse(kept.isEnded)
        XCTAssertNotNil(persistence.sessions[kept.id], "released, not deleted")
    }
}
