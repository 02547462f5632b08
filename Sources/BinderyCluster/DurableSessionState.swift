import BinderyRuntime

/// Someone waiting on a ``DurableSessionMachine`` transition (a creation record, a takeover,
/// the drain): a number the machine keeps, so its states and effects stay plain values;
/// ``DurableSessions`` holds the closure that goes with it.
package typealias DurableWaiter = Int

/// What this process knows of one token's store record, beyond a held session's journal.
///
/// A per-connection session held here keeps its own write-path state on its
/// ``SessionJournal`` (epoch, diverged, recovering, releasing), read on every event; a
/// token with no entry here and no session is simply not held (ended, moved, or never seen).
package enum DurableSessionState: Equatable, Sendable {
    /// A new per-connection session's record is being made (epoch 1); these wait for it.
    case creating(waiters: [DurableWaiter])
    /// A per-connection session whose record the store did not confirm (it was
    /// unavailable): kept, and recorded afresh from a fresh scene once the store is back.
    case unrecorded
    /// A token not held here is being taken over from the store; these wait for it (one
    /// persistence call however many ask).
    case takingOver(waiters: [DurableWaiter])
    /// A shared scene's session whose store record (token and scene name only) this
    /// process holds at `epoch`; a fenced refresh means it moved.
    case sharedRecord(epoch: Int64)
}

/// The store as the durable side sees it.
package enum DurableStoreMode: Equatable, Sendable {
    /// Writes can be made.
    case available
    /// The store is unreachable: new sessions and takeovers are refused, deletions kept
    /// for later; recovered when it is back.
    case unavailable
    /// Shutting down (``SessionStore/drain(completion:)``): no new writes, every session
    /// released to whichever process its client reaches next.
    case draining
}

/// A store answer reduced to what the machine decides on (``Result`` of `Void` is not
/// `Equatable`).
package enum DurableAnswer: Equatable, Sendable {
    /// It was made.
    case done
    /// ``SessionPersistenceError/fenced``.
    case fenced
    /// ``SessionPersistenceError/unavailable(_:)``.
    case unavailable(String)
    /// ``SessionPersistenceError/otherScene(_:)``.
    case otherScene(String)

    /// The answer `result` carries.
    package init(_ result: Result<Void, SessionPersistenceError>) {
        switch result {
        case .success: self = .done
        case .failure(.fenced): self = .fenced
        case .failure(.unavailable(let reason)): self = .unavailable(reason)
        case .failure(.otherScene(let scene)): self = .otherScene(scene)
        }
    }

    /// The error it was, if any.
    var error: SessionPersistenceError? {
        switch self {
        case .done: return nil
        case .fenced: return .fenced
        case .unavailable(let reason): return .unavailable(reason)
        case .otherScene(let scene): return .otherScene(scene)
        }
    }
}

/// What a takeover gives its waiters.
package enum DurableTakeoverOutcome: Equatable, Sendable {
    /// The store had it (epoch raised): rebuilt here, or the session already here.
    case found(StoredSession)
    /// No such session (unknown, expired), or refused as for an unknown token.
    case none
    /// A session of another scene (named): left as it is, answered as `none`.
    case otherScene(String)
    /// The store could not be asked (`store-unavailable`); the reason when it failed.
    case unavailable(String?)
}

/// What happens to the durable side of a store (``DurableSessionMachine/handle(_:)``).
package enum DurableEvent: Equatable, Sendable {
    /// A new per-connection session was made here: record it.
    case recordRequested(token: String)
    /// `waiter` wants to know whether `token`'s record is made.
    case recordAwaited(token: String, waiter: DurableWaiter)
    /// The store answered that record.
    case recordAnswered(token: String, DurableAnswer)
    /// A session once ``DurableSessionState/unrecorded`` was recorded again: the answer.
    case recordedAgain(token: String, DurableAnswer)
    /// A token not held here is asked for (resume, API call, takeover).
    case takeoverRequested(token: String, scene: String?, waiter: DurableWaiter)
    /// The store answered that takeover.
    case takeoverAnswered(token: String, Result<StoredSession?, SessionPersistenceError>)
    /// A shared scene's session made here under a new token: record it (epoch 1).
    case sharedRecordRequested(token: String)
    /// The store answered that record.
    case sharedRecordAnswered(token: String, DurableAnswer)
    /// A shared scene's session resumed here under a token: take its record over.
    case sharedTakeoverRequested(token: String)
    /// The store answered a takeover of a shared scene's session's record (with its scene).
    case sharedTakeoverAnswered(token: String, Result<StoredSession?, SessionPersistenceError>)
    /// The store answered a shared record's refresh made at `epoch`.
    case sharedRefreshAnswered(token: String, epoch: Int64, DurableAnswer)
    /// A session is ending for `reason`; `epoch` is its journal's, if it has one.
    case ended(token: String, epoch: Int64?, reason: String)
    /// The store answered a deletion.
    case deleteAnswered(token: String, epoch: Int64, DurableAnswer)
    /// The store is available again.
    case storeBack
    /// The periodic refresh timer fired.
    case refreshTick
    /// Shutting down; `waiter` is told when the store has answered what was written.
    case drainRequested(waiter: DurableWaiter)
}

/// What the machine asks ``DurableSessions`` to do: persistence calls, answers to waiters,
/// sessions to end or rebuild.
package enum DurableEffect: Equatable, Sendable {
    /// Record the per-connection session `token` at epoch 1 (``SessionPersistence/create(_:completion:)``).
    case create(token: String)
    /// Record the shared scene's session `token` (scene name only).
    case createShared(token: String)
    /// Take `token` over, only if of `scene` when named.
    case takeOver(token: String, scene: String?)
    /// Take a shared scene's session's record over (by its scene).
    case takeOverShared(token: String)
    /// Delete an ended session's keys, fenced by `epoch`.
    case delete(token: String, epoch: Int64)
    /// Tell `waiters` whether the new session's record was made.
    case answerRecord([DurableWaiter], made: Bool)
    /// Give `waiters` the takeover of `token`'s outcome (rebuilt here when found).
    case answerTakeover(token: String, [DurableWaiter], DurableTakeoverOutcome)
    /// The session's creation was not confirmed: its events are refused until recorded.
    case keepUnrecorded(token: String, note: String)
    /// End the session held under `token` for `reason` (logged with `note`, if any).
    case end(token: String, reason: String, note: String?)
    /// Swap the session's scene for a fresh one (recorded afresh: nothing was acknowledged).
    case rebuildFresh(token: String)
    /// Refresh the sessions held here (all on a `wholeRound`, else those nobody watches).
    case refreshSessions(wholeRound: Bool)
    /// Rebuild from the store the sessions that got ahead of their journal.
    case recover
    /// Start the periodic refresh (if not running).
    case startRefreshing
    /// Stop it.
    case stopRefreshing
    /// Release every session's ownership (the drain).
    case releaseAll
    /// Stop the persistence, then tell `waiter`.
    case stop(then: DurableWaiter)
}
