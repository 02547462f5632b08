@testable import Bindery
import XCTest

/// The durable side's transitions as a table: each row a token's state (and the store's
/// mode, the kept deletions) before an event, and the state and effects after it.
final class DurableSessionStateTests: XCTestCase {
    typealias Pending = DurableSessionMachine.PendingDelete

    struct Row {
        var name: String
        var given: DurableSessionState?
        var mode: DurableStoreMode = .available
        var pending: [Pending] = []
        var event: DurableEvent
        var then: DurableSessionState?
        var effects: [DurableEffect]
        var pendingAfter: [Pending]?
    }

    static let token = "tokenAAAAAAAAAAAAAAAAA"
    static let stored = StoredSession(token: token, scene: "echo", createdAt: 0, epoch: 3, restoration: .replay)
    static let moved = Session.movedReason

    static let rows: [Row] = [
        // A new per-connection session's record
        Row(name: "a new session is recorded", given: nil, event: .recordRequested(token: token),
            then: .creating(waiters: []), effects: [.create(token: token)]),
        Row(name: "a waiter joins the record in flight", given: .creating(waiters: [1]),
            event: .recordAwaited(token: token, waiter: 2), then: .creating(waiters: [1, 2]), effects: []),
        Row(name: "a waiter for a record made already is answered at once", given: nil,
            event: .recordAwaited(token: token, waiter: 2), then: nil, effects: [.answerRecord([2], made: true)]),
        Row(name: "the record is made: its waiters hear so", given: .creating(waiters: [1, 2]),
            event: .recordAnswered(token: token, .done), then: nil, effects: [.answerRecord([1, 2], made: true)]),
        Row(name: "the record is made with nobody waiting", given: .creating(waiters: []),
            event: .recordAnswered(token: token, .done), then: nil, effects: []),
        Row(name: "the store was lost: kept unrecorded", given: .creating(waiters: [1]),
            event: .recordAnswered(token: token, .unavailable("gone")), then: .unrecorded,
            effects: [.answerRecord([1], made: false),
                      .keepUnrecorded(token: token, note: "could not be stored yet: the session store is unavailable: gone")]),
        Row(name: "the token is taken: the session moves", given: .creating(waiters: []),
            event: .recordAnswered(token: token, .fenced), then: nil,
            effects: [.end(token: token, reason: moved, note: "could not be stored: the session is owned by another process")]),
        Row(name: "recorded again: a fresh scene", given: .unrecorded,
            event: .recordedAgain(token: token, .done), then: nil, effects: [.rebuildFresh(token: token)]),
        Row(name: "recorded again while still down: kept", given: .unrecorded,
            event: .recordedAgain(token: token, .unavailable("down")), then: .unrecorded, effects: []),
        Row(name: "the first record landed after all: rebuilt from the store", given: .unrecorded,
            event: .recordedAgain(token: token, .fenced), then: nil, effects: [.recover]),

        // Takeover of a token not held here
        Row(name: "a takeover asks the store", given: nil,
            event: .takeoverRequested(token: token, scene: "echo", waiter: 1), then: .takingOver(waiters: [1]),
            effects: [.takeOver(token: token, scene: "echo")]),
        Row(name: "a second takeover waits for the first: no second call", given: .takingOver(waiters: [1]),
            event: .takeoverRequested(token: token, scene: nil, waiter: 2), then: .takingOver(waiters: [1, 2]), effects: []),
        Row(name: "no takeover while the store is unavailable", given: nil, mode: .unavailable,
            event: .takeoverRequested(token: token, scene: nil, waiter: 1), then: nil,
            effects: [.answerTakeover(token: token, [1], .unavailable(nil))]),
        Row(name: "no takeover while draining", given: nil, mode: .draining,
            event: .takeoverRequested(token: token, scene: nil, waiter: 1), then: nil,
            effects: [.answerTakeover(token: token, [1], .unavailable(nil))]),
        Row(name: "found: every waiter gets it", given: .takingOver(waiters: [1, 2]),
            event: .takeoverAnswered(token: token, .success(stored)), then: nil,
            effects: [.answerTakeover(token: token, [1, 2], .found(stored))]),
        Row(name: "unknown token", given: .takingOver(waiters: [1]),
            event: .takeoverAnswered(token: token, .success(nil)), then: nil,
            effects: [.answerTakeover(token: token, [1], .none)]),
        Row(name: "another scene's session is left alone", given: .takingOver(waiters: [1]),
            event: .takeoverAnswered(token: token, .failure(.otherScene("clock"))), then: nil,
            effects: [.answerTakeover(token: token, [1], .otherScene("clock"))]),
        Row(name: "the store failed the takeover", given: .takingOver(waiters: [1]),
            event: .takeoverAnswered(token: token, .failure(.unavailable("timeout"))), then: nil,
            effects: [.answerTakeover(token: token, [1], .unavailable("the session store is unavailable: timeout"))]),

        // A shared scene's record
        Row(name: "a shared scene's session is recorded at epoch 1", given: nil,
            event: .sharedRecordRequested(token: token), then: .sharedRecord(epoch: 1), effects: [.createShared(token: token)]),
        Row(name: "its record exists elsewhere: this copy is stale", given: .sharedRecord(epoch: 1),
            event: .sharedRecordAnswered(token: token, .fenced), then: nil, effects: [.end(token: token, reason: moved, note: nil)]),
        Row(name: "not recorded while down: the next refresh records it", given: .sharedRecord(epoch: 1),
            event: .sharedRecordAnswered(token: token, .unavailable("down")), then: nil, effects: []),
        Row(name: "a late answer after a takeover changes nothing", given: .sharedRecord(epoch: 2),
            event: .sharedRecordAnswered(token: token, .fenced), then: .sharedRecord(epoch: 2), effects: []),
        Row(name: "a shared resume takes the record over", given: nil,
            event: .sharedTakeoverRequested(token: token), then: nil, effects: [.takeOverShared(token: token)]),
        Row(name: "not while the store is down", given: nil, mode: .unavailable,
            event: .sharedTakeoverRequested(token: token), then: nil, effects: []),
        Row(name: "the record taken over at its new epoch", given: nil,
            event: .sharedTakeoverAnswered(token: token, .success(stored)), then: .sharedRecord(epoch: 3), effects: []),
        Row(name: "no record yet: recorded", given: nil,
            event: .sharedTakeoverAnswered(token: token, .success(nil)), then: .sharedRecord(epoch: 1),
            effects: [.createShared(token: token)]),
        Row(name: "a token of another scene: this session starts over", given: nil,
            event: .sharedTakeoverAnswered(token: token, .failure(.otherScene("echo"))), then: nil,
            effects: [.end(token: token, reason: moved, note: "is a session of 'echo' in the store")]),
        Row(name: "a fenced refresh: taken over elsewhere", given: .sharedRecord(epoch: 3),
            event: .sharedRefreshAnswered(token: token, epoch: 3, .fenced), then: nil,
            effects: [.end(token: token, reason: moved, note: "was taken over elsewhere")]),
        Row(name: "a refresh of an older epoch changes nothing", given: .sharedRecord(epoch: 4),
            event: .sharedRefreshAnswered(token: token, epoch: 3, .fenced), then: .sharedRecord(epoch: 4), effects: []),
        Row(name: "a refresh that worked", given: .sharedRecord(epoch: 3),
            event: .sharedRefreshAnswered(token: token, epoch: 3, .done), then: .sharedRecord(epoch: 3), effects: []),

        // Ending and deleting
        Row(name: "an ended session's keys are deleted, fenced", given: nil,
            event: .ended(token: token, epoch: 2, reason: "bye"), then: nil, effects: [.delete(token: token, epoch: 2)]),
        Row(name: "a shared record is deleted at its epoch", given: .sharedRecord(epoch: 5),
            event: .ended(token: token, epoch: nil, reason: "expired"), then: nil, effects: [.delete(token: token, epoch: 5)]),
        Row(name: "a shutdown leaves the keys for another process", given: .sharedRecord(epoch: 5),
            event: .ended(token: token, epoch: nil, reason: "shutdown"), then: nil, effects: []),
        Row(name: "a moved session's keys are the new owner's", given: nil,
            event: .ended(token: token, epoch: 2, reason: moved), then: nil, effects: []),
        Row(name: "an unrecorded session is forgotten", given: .unrecorded,
            event: .ended(token: token, epoch: 1, reason: "bye"), then: nil, effects: [.delete(token: token, epoch: 1)]),
        Row(name: "a record in flight still answers its waiters", given: .creating(waiters: [1]),
            event: .ended(token: token, epoch: 1, reason: "bye"), then: .creating(waiters: [1]),
            effects: [.delete(token: token, epoch: 1)]),
        Row(name: "no session, no epoch: nothing to delete", given: nil,
            event: .ended(token: token, epoch: nil, reason: "bye"), then: nil, effects: []),
        Row(name: "a deletion while the store is down is kept", given: nil, mode: .unavailable,
            pending: [Pending(token: "older", epoch: 1)],
            event: .ended(token: token, epoch: 2, reason: "bye"), then: nil, effects: [],
            pendingAfter: [Pending(token: "older", epoch: 1), Pending(token: token, epoch: 2)]),
        Row(name: "a deletion the store failed is kept", given: nil,
            event: .deleteAnswered(token: token, epoch: 2, .unavailable("timeout")), then: nil, effects: [],
            pendingAfter: [Pending(token: token, epoch: 2)]),
        Row(name: "a deletion made is forgotten", given: nil,
            event: .deleteAnswered(token: token, epoch: 2, .done), then: nil, effects: [], pendingAfter: []),

        // The store's mode
        Row(name: "the store is back: refresh, kept deletions, recovery", given: .unrecorded,
            pending: [Pending(token: "a", epoch: 1), Pending(token: "b", epoch: 4)],
            event: .storeBack, then: .unrecorded,
            effects: [.startRefreshing, .delete(token: "a", epoch: 1), .delete(token: "b", epoch: 4), .recover],
            pendingAfter: []),
        Row(name: "back while draining: only the deletions", given: nil, mode: .draining,
            pending: [Pending(token: "a", epoch: 1)],
            event: .storeBack, then: nil, effects: [.delete(token: "a", epoch: 1)], pendingAfter: []),
        Row(name: "a tick sends the kept deletions and refreshes", given: .sharedRecord(epoch: 2),
            pending: [Pending(token: "a", epoch: 1)],
            event: .refreshTick, then: .sharedRecord(epoch: 2),
            effects: [.delete(token: "a", epoch: 1), .refreshSessions(wholeRound: true)], pendingAfter: []),
        Row(name: "no tick while the store is down", given: nil, mode: .unavailable,
            pending: [Pending(token: "a", epoch: 1)],
            event: .refreshTick, then: nil, effects: [], pendingAfter: [Pending(token: "a", epoch: 1)]),
        Row(name: "no tick while draining", given: nil, mode: .draining, event: .refreshTick, then: nil, effects: []),
        Row(name: "the drain stops the refresh, releases every session, stops the store", given: .sharedRecord(epoch: 2),
            event: .drainRequested(waiter: 9), then: .sharedRecord(epoch: 2),
            effects: [.stopRefreshing, .releaseAll, .stop(then: 9)]),
    ]

    /// A machine in the row's state.
    private func machine(for row: Row) -> DurableSessionMachine {
        var machine = DurableSessionMachine()
        if row.mode == .draining { _ = machine.handle(.drainRequested(waiter: 0)) }
        machine.storeAvailable = row.mode != .unavailable
        if let given = row.given { machine.states[Self.token] = given }
        machine.pendingDeletes = row.pending
        XCTAssertEqual(machine.mode, row.mode, row.name)
        return machine
    }

    func testEveryRowOfTheTable() {
        XCTAssertGreaterThan(Self.rows.count, 40)
        for row in Self.rows {
            var machine = machine(for: row)
            let effects = machine.handle(row.event)
            XCTAssertEqual(machine.state(of: Self.token), row.then, "state after: \(row.name)")
            XCTAssertEqual(effects, row.effects, "effects: \(row.name)")
            XCTAssertEqual(machine.pendingDeletes, row.pendingAfter ?? row.pending, "kept deletions: \(row.name)")
            let expectedMode: DurableStoreMode = row.event == .drainRequested(waiter: 9) ? .draining : row.mode
            XCTAssertEqual(machine.mode, expectedMode, "mode after: \(row.name)")
        }
    }

    func testOtherTokensAreUntouched() {
        for row in Self.rows {
            var machine = machine(for: row)
            machine.states["other"] = .sharedRecord(epoch: 7)
            _ = machine.handle(row.event)
            XCTAssertEqual(machine.state(of: "other"), .sharedRecord(epoch: 7), row.name)
        }
    }

    func testAWholeRoundEveryTicksPerRoundTicks() {
        var machine = DurableSessionMachine()
        machine.ticksPerRound = 3
        let rounds = (0..<6).map { _ in machine.handle(.refreshTick) }
        XCTAssertEqual(rounds.map { $0 == [.refreshSessions(wholeRound: true)] }, [false, false, true, false, false, true])
        XCTAssertEqual(machine.refreshTicks, 6)
    }

    func testKeptDeletionsAreCappedOldestFirst() {
        var machine = DurableSessionMachine()
        machine.storeAvailable = false
        let effects = (1...Int64(DurableSessionMachine.maxPendingDeletes + 2)).flatMap { epoch in
            machine.handle(.ended(token: "t\(epoch)", epoch: epoch, reason: "bye"))
        }
        XCTAssertEqual(effects, [], "kept, not sent")
        XCTAssertEqual(machine.pendingDeletes.count, DurableSessionMachine.maxPendingDeletes)
        XCTAssertEqual(machine.pendingDeletes.first, Pending(token: "t3", epoch: 3))
        machine.storeAvailable = true
        let retried = machine.handle(.storeBack)
        XCTAssertEqual(retried.count, DurableSessionMachine.maxPendingDeletes + 2)
        XCTAssertEqual(retried.first, .startRefreshing)
        XCTAssertEqual(retried[1], .delete(token: "t3", epoch: 3))
        XCTAssertEqual(retried.last, .recover)
    }

    func testForgettingUnrecordedTokensNoLongerHeld() {
        var machine = DurableSessionMachine()
        machine.states = ["gone": .unrecorded, "held": .unrecorded, "shared": .sharedRecord(epoch: 1)]
        machine.forgetUnrecorded { $0 == "held" }
        XCTAssertEqual(machine.states, ["held": .unrecorded, "shared": .sharedRecord(epoch: 1)])
        XCTAssertEqual(machine.sharedRecords, ["shared": 1])
    }
}
