import BinderyRuntime

/// The durable side's states and transitions: each token's ``DurableSessionState``, the
/// store's ``DurableStoreMode``, the deletions kept for later and the refresh rounds.
/// ``handle(_:)`` changes them and says what to do (``DurableEffect``); it calls nothing,
/// so a table of (state, event) → (state, effects) tests it without a loop.
/// ``DurableSessions`` feeds it and carries the effects out. Loop-confined (a value owned
/// by ``DurableSessions``).
package struct DurableSessionMachine: Equatable, Sendable {
    /// The most deletions kept for retry while the store is unavailable.
    package static let maxPendingDeletes = 10_000

    /// Each token's state; a token with none is not tracked.
    package var states: [String: DurableSessionState] = [:]
    /// Whether the persistence is reachable: read from it before each event (only the last
    /// store made with an in-memory persistence hears it change).
    package var storeAvailable = true
    /// Set by the drain, never cleared.
    package private(set) var isDraining = false
    /// Deletions the store could not take, oldest first, retried when it is back; at most
    /// ``maxPendingDeletes`` (the oldest go first).
    package var pendingDeletes: [PendingDelete] = []
    /// Refresh ticks so far.
    package private(set) var refreshTicks = 0
    /// How many ticks make a round that refreshes every session (the others refresh only
    /// those nobody is connected to).
    package var ticksPerRound = 1

    /// An ended session's keys still to delete, fenced by `epoch`.
    package struct PendingDelete: Equatable, Sendable {
        package var token: String
        package var epoch: Int64

        /// A deletion of `token`'s keys at `epoch`.
        package init(token: String, epoch: Int64) {
            self.token = token
            self.epoch = epoch
        }
    }

    /// A machine with nothing tracked, the store available.
    package init() {}

    /// The store's mode now.
    package var mode: DurableStoreMode {
        if isDraining { return .draining }
        return storeAvailable ? .available : .unavailable
    }

    /// `token`'s state, if tracked.
    package func state(of token: String) -> DurableSessionState? {
        states[token]
    }

    /// The shared scenes' records held here (token to epoch).
    package var sharedRecords: [String: Int64] {
        states.compactMapValues { if case .sharedRecord(let epoch) = $0 { return epoch } else { return nil } }
    }

    /// Forgets the unrecorded tokens no longer held (`held` says which are).
    package mutating func forgetUnrecorded(unless held: (String) -> Bool) {
        for (token, state) in states where state == .unrecorded && !held(token) { states[token] = nil }
    }

    /// Takes `event`, and says what to do about it, in order.
    package mutating func handle(_ event: DurableEvent) -> [DurableEffect] {
        switch event {
        case .recordRequested(let token):
            states[token] = .creating(waiters: [])
            return [.create(token: token)]

        case .recordAwaited(let token, let waiter):
            guard case .creating(let waiting)? = states[token] else {
                // Not being recorded (any more): nothing to wait for.
                return [.answerRecord([waiter], made: true)]
            }
            states[token] = .creating(waiters: waiting + [waiter])
            return []

        case .recordAnswered(let token, let answer):
            var waiters: [DurableWaiter] = []
            if case .creating(let waiting)? = states[token] {
                waiters = waiting
                states[token] = nil
            }
            var effects: [DurableEffect] = waiters.isEmpty ? [] : [.answerRecord(waiters, made: answer == .done)]
            switch answer {
            case .done:
                break
            case .unavailable(let reason):
                // No event of it was acknowledged: recorded afresh once the store is back.
                states[token] = .unrecorded
                effects.append(.keepUnrecorded(token: token,
                                               note: "could not be stored yet: \(SessionPersistenceError.unavailable(reason))"))
            case .fenced, .otherScene:
                // Its events could not be journaled: the client starts over (4001).
                effects.append(.end(token: token, reason: Session.movedReason,
                                    note: "could not be stored: \(answer.error.map { "\($0)" } ?? "")"))
            }
            return effects

        case .recordedAgain(let token, let answer):
            switch answer {
            case .done:
                states[token] = nil
                return [.rebuildFresh(token: token)]
            case .unavailable:
                return []  // the next refresh or reconnect tries again
            case .fenced, .otherScene:
                states[token] = nil  // the first creation landed: rebuilt from the store
                return [.recover]
            }

        case .takeoverRequested(let token, let scene, let waiter):
            guard mode == .available else { return [.answerTakeover(token: token, [waiter], .unavailable(nil))] }
            switch states[token] {
            case .takingOver(let waiting)?:
                states[token] = .takingOver(waiters: waiting + [waiter])
                return []
            case .creating?:
                // An ended session's record still being made: answered as the store
                // being busy, the client asks again.
                return [.answerTakeover(token: token, [waiter], .unavailable(nil))]
            case .unrecorded?, .sharedRecord?, nil:
                states[token] = .takingOver(waiters: [waiter])
                return [.takeOver(token: token, scene: scene)]
            }

        case .takeoverAnswered(let token, let result):
            var waiters: [DurableWaiter] = []
            if case .takingOver(let waiting)? = states[token] {
                waiters = waiting
                states[token] = nil
            }
            let outcome: DurableTakeoverOutcome
            switch result {
            case .failure(.otherScene(let other)): outcome = .otherScene(other)
            case .failure(let error): outcome = .unavailable("\(error)")
            case .success(nil): outcome = .none
            case .success(let stored?): outcome = .found(stored)
            }
            return [.answerTakeover(token: token, waiters, outcome)]

        case .sharedRecordRequested(let token):
            states[token] = .sharedRecord(epoch: 1)
            return [.createShared(token: token)]

        case .sharedRecordAnswered(let token, let answer):
            guard answer != .done, states[token] == .sharedRecord(epoch: 1) else { return [] }
            states[token] = nil
            if case .unavailable = answer { return [] }  // not made: recorded by the next refresh
            // Another process has the token's record: this copy is a stale one.
            return [.end(token: token, reason: Session.movedReason, note: nil)]

        case .sharedTakeoverRequested(let token):
            guard mode == .available else { return [] }
            return [.takeOverShared(token: token)]

        case .sharedTakeoverAnswered(let token, let result):
            switch result {
            case .success(let stored?):
                states[token] = .sharedRecord(epoch: stored.epoch)
                return []
            case .success(nil):
                return handle(.sharedRecordRequested(token: token))
            case .failure(.otherScene(let other)):
                // Resumed with the token of another scene's session: that one is left alone.
                return [.end(token: token, reason: Session.movedReason, note: "is a session of '\(other)' in the store")]
            case .failure:
                return []
            }

        case .sharedRefreshAnswered(let token, let epoch, let answer):
            // Taken over elsewhere (or ended there): this copy is stale.
            guard answer == .fenced, states[token] == .sharedRecord(epoch: epoch) else { return [] }
            states[token] = nil
            return [.end(token: token, reason: Session.movedReason, note: "was taken over elsewhere")]

        case .ended(let token, let journalEpoch, let reason):
            var sharedEpoch: Int64?
            switch states[token] {
            case .sharedRecord(let epoch)?:
                sharedEpoch = epoch
                states[token] = nil
            case .unrecorded?:
                states[token] = nil
            case .creating?, .takingOver?, nil:
                break  // their waiters are answered when the store does
            }
            // Ended sessions leave no keys; a shutdown or a move leaves them for another process.
            guard let epoch = journalEpoch ?? sharedEpoch, reason != "shutdown", reason != Session.movedReason else { return [] }
            return delete(token: token, epoch: epoch)

        case .deleteAnswered(let token, let epoch, let answer):
            if case .unavailable = answer { keep(PendingDelete(token: token, epoch: epoch)) }
            return []

        case .storeBack:
            var effects: [DurableEffect] = isDraining ? [] : [.startRefreshing]
            effects += retryDeletes()
            if !isDraining { effects.append(.recover) }
            return effects

        case .refreshTick:
            guard mode == .available else { return [] }
            let effects = retryDeletes()  // those that timed out while the connection stayed up
            refreshTicks &+= 1
            return effects + [.refreshSessions(wholeRound: refreshTicks % ticksPerRound == 0)]

        case .drainRequested(let waiter):
            isDraining = true
            return [.stopRefreshing, .releaseAll, .stop(then: waiter)]
        }
    }

    /// Deletes now, or keeps the deletion while the store is unavailable.
    private mutating func delete(token: String, epoch: Int64) -> [DurableEffect] {
        guard storeAvailable else {
            keep(PendingDelete(token: token, epoch: epoch))
            return []
        }
        return [.delete(token: token, epoch: epoch)]
    }

    private mutating func keep(_ pending: PendingDelete) {
        pendingDeletes.append(pending)
        if pendingDeletes.count > Self.maxPendingDeletes { pendingDeletes.removeFirst() }
    }

    /// The kept deletions, sent again (each still fenced: a session taken over since has a
    /// newer epoch and keeps its keys).
    private mutating func retryDeletes() -> [DurableEffect] {
        guard storeAvailable, !pendingDeletes.isEmpty else { return [] }
        let pending = pendingDeletes
        pendingDeletes = []
        return pending.flatMap { delete(token: $0.token, epoch: $0.epoch) }
    }
}
