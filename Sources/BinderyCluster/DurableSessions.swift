import BinderyProtocol
import BinderyRuntime
import Foundation
import RxCore

/// A store's durable side: its persistence, its shared scenes across processes, and the
/// states of both, named in one ``DurableSessionMachine``. The store tells it what happens
/// to its sessions (``SessionStoreBacking``); it feeds the machine those events and the
/// store's answers, and carries out the effects the machine returns (persistence calls,
/// answers to waiters, sessions ended or rebuilt).
///
/// Loop-confined: the machine, the waiters and the refresh timer are touched on the loop
/// thread only (persistence completions arrive there).
package final class DurableSessions: SessionStoreBacking {
    unowned let store: SessionStore
    let persistence: SessionPersistence?
    var sharedScenes: SharedSceneCluster?
    /// The states and transitions (read by tests; changed through ``handle(_:)`` only).
    package private(set) var machine = DurableSessionMachine()
    /// The periodic TTL refresh, while it runs.
    private var refreshTimer: Disposable?

    /// What a ``DurableWaiter`` stands for.
    enum Waiting {
        case record((Bool) -> Void)
        case takeover((Result<Session?, SessionError>) -> Void)
        case done(() -> Void)
    }

    private var waiting: [DurableWaiter: Waiting] = [:]
    private var nextWaiter: DurableWaiter = 0

    init(store: SessionStore, persistence: SessionPersistence?) {
        self.store = store
        self.persistence = persistence
    }

    // MARK: - SessionStoreBacking

    /// Refused while the store is unavailable or draining.
    package var refusesNewSessions: Bool {
        persistence != nil && mode != .available
    }

    /// With a shared scene cluster.
    package var spansProcesses: Bool { sharedScenes != nil }

    /// Records it: a per-connection session's journal, a new shared scene's token.
    package func created(_ session: Session, minted: Bool) {
        guard persistence != nil else { return }
        if session.scene.sharing == .perConnection { persist(session) }
        if sharedScenes != nil, session.scene.sharing == .shared, minted { recordShared(session) }
    }

    /// Takes its record over.
    package func resumedShared(_ session: Session) {
        adoptShared(session)
    }

    /// Deletes its keys unless it moved or the server shuts down.
    package func ending(_ session: Session, reason: String) {
        guard persistence != nil else { return }
        handle(.ended(token: session.id, epoch: session.journal?.epoch, reason: reason))
    }

    /// Attaches it to the cluster, if any.
    package func built(sharedHost host: SceneHost) {
        sharedScenes?.attach(host)
    }

    // MARK: - The machine

    /// The store's mode now (its availability read from the persistence).
    package var mode: DurableStoreMode {
        machine.storeAvailable = persistence?.isAvailable ?? false
        return machine.mode
    }

    /// Whether the store is draining.
    var isDraining: Bool { machine.isDraining }

    /// Feeds `event` to the machine, then carries out what it says, in order. (An effect
    /// may feed another event: the machine is done with the first by then.)
    func handle(_ event: DurableEvent) {
        machine.storeAvailable = persistence?.isAvailable ?? false
        let effects = machine.handle(event)
        for effect in effects { perform(effect) }
    }

    /// Forgets the unrecorded tokens whose sessions ended.
    func forgetUnrecorded() {
        machine.forgetUnrecorded { [store] in store.byID[$0] != nil }
    }

    /// A number for `what`, kept until the machine says to answer it.
    func wait(_ what: Waiting) -> DurableWaiter {
        nextWaiter &+= 1
        waiting[nextWaiter] = what
        return nextWaiter
    }

    private func perform(_ effect: DurableEffect) {
        switch effect {
        case .create(let token):
            guard let persistence, let session = store.byID[token], let journal = session.journal else { return }
            let stored = StoredSession(token: token, scene: session.sceneName,
                                       createdAt: session.createdAt.timeIntervalSince1970, restoration: journal.restoration,
                                       parameters: session.sceneParameters)
            persistence.create(stored) { [weak self] result in
                self?.handle(.recordAnswered(token: token, DurableAnswer(result)))
            }
        case .createShared(let token):
            guard let persistence, let session = store.byID[token] else { return }
            let stored = StoredSession(token: token, scene: session.sceneName,
                                       createdAt: session.createdAt.timeIntervalSince1970, restoration: .none)
            persistence.create(stored) { [weak self] result in
                self?.handle(.sharedRecordAnswered(token: token, DurableAnswer(result)))
            }
        case .takeOver(let token, let scene):
            persistence?.takeOver(token: token, scene: scene) { [weak self] result in
                self?.handle(.takeoverAnswered(token: token, result))
            }
        case .takeOverShared(let token):
            guard let persistence, let session = store.byID[token] else { return }
            persistence.takeOver(token: token, scene: session.sceneName) { [weak self, weak session] result in
                guard let self, let session, !session.isEnded, self.store.byID[token] === session else { return }
                self.handle(.sharedTakeoverAnswered(token: token, result))
            }
        case .delete(let token, let epoch):
            persistence?.delete(token: token, epoch: epoch) { [weak self] result in
                self?.handle(.deleteAnswered(token: token, epoch: epoch, DurableAnswer(result)))
            }
        case .answerRecord(let waiters, let made):
            for waiter in waiters {
                if case .record(let completion)? = waiting.removeValue(forKey: waiter) { completion(made) }
            }
        case .answerTakeover(let token, let waiters, let outcome):
            let result = takeoverResult(token: token, outcome)
            for waiter in waiters {
                if case .takeover(let completion)? = waiting.removeValue(forKey: waiter) { completion(result) }
            }
        case .keepUnrecorded(let token, let note):
            // Kept (its client stays, and its resume here finds it): refused events until
            // it is recorded afresh.
            guard let session = store.byID[token], !session.isEnded, let journal = session.journal else { return }
            store.log("session \(session.shortID) \(note)")
            journal.isDiverged = true
            journal.owesScene = true
        case .end(let token, let reason, let note):
            guard let session = store.byID[token], !session.isEnded else { return }
            if let note { store.log("session \(session.shortID) \(note)") }
            store.end(session, reason: reason)
        case .rebuildFresh(let token):
            rebuildFresh(token: token)
        case .refreshSessions(let wholeRound):
            refreshSessions(wholeRound: wholeRound)
        case .recover:
            recover()
        case .startRefreshing:
            startRefreshing()
        case .stopRefreshing:
            refreshTimer?.dispose()
            refreshTimer = nil
        case .releaseAll:
            for session in store.byID.values {
                guard let journal = session.journal, !journal.isDiverged else { continue }
                persistence?.release(token: session.id, epoch: journal.epoch) { _ in }
            }
        case .stop(let waiter):
            let done = { [weak self] in
                if case .done(let completion)? = self?.waiting.removeValue(forKey: waiter) { completion() }
            }
            guard let persistence else { return done() }
            persistence.stop(completion: done)
        }
    }

    // MARK: - Upkeep

    /// Hooks the persistence up and starts it.
    func start() {
        guard let persistence else { return }
        persistence.onAvailabilityChange = { [weak self] available in
            if available { self?.handle(.storeBack) }
        }
        persistence.onReleaseRequest = { [weak self] token, done in
            guard let self else { return done() }
            self.release(token: token, done: done)
        }
        persistence.start()
        // A store that connects later starts the timer when it is available: from inside
        // the running loop. (The server makes its store before the loop runs, when
        // `MainScheduler` still sends timers to the main dispatch queue, which a libuv
        // process never drains: the refresh never ran, so stale copies lived on and
        // idle sessions' keys expired under them.)
        if persistence.isAvailable { startRefreshing() }
    }

    /// Starts the periodic refresh (once).
    private func startRefreshing() {
        guard let persistence, refreshTimer == nil, !isDraining else { return }
        // Often enough that a key never outlives its owner's interest, and that an idle
        // owner learns of a takeover (its refresh is fenced) well within the TTL.
        let ttl = Int(persistence.timeToLive.components.seconds)
        let period = max(1, min(10, ttl / 3))
        // Sessions nobody is connected to are checked every tick: a copy left behind by a
        // takeover is one of them, and ends within a tick instead of a whole round.
        let tick = min(2, period)
        machine.ticksPerRound = max(1, period / tick)
        refreshTimer = store.scheduler.schedulePeriodic((), startAfter: .seconds(tick), period: .seconds(tick)) { [weak self] state in
            self?.handle(.refreshTick)
            return state
        }
    }

    /// Graceful drain (SIGTERM with a store): refuses new writes, releases every
    /// session's ownership and the process lease once the writes already made are
    /// answered (so their acks go out), then calls `completion`.
    func drain(completion: @escaping () -> Void) {
        guard persistence != nil else { return completion() }
        handle(.drainRequested(waiter: wait(.done(completion))))
    }
}
