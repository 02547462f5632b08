import BinderyProtocol
import BinderyRuntime
import Foundation
import RxCore

/// The durable side's loop-confined state in a ``SessionStore``.
struct DurableState {
    /// Takeovers in flight, by token, with everyone waiting for them.
    var takeovers: [String: [(Result<Session?, SessionError>) -> Void]] = [:]
    /// Set by ``SessionStore/drain(completion:)``: no new writes.
    var isDraining = false
    /// The periodic TTL refresh.
    var refreshTimer: Disposable?
    /// Refresh ticks so far, and how many make a round that refreshes every session.
    var refreshTicks = 0
    var ticksPerRound = 1
    /// The store records of shared scenes' sessions held here (token to epoch): only a
    /// token and a scene name, so any process can find the token; no journal.
    var sharedRecords: [String: Int64] = [:]
    /// Deletions the store could not take (it was unavailable), oldest first, retried
    /// when it is back; at most ``SessionStore/maxPendingDeletes``.
    var pendingDeletes: [(token: String, epoch: Int64)] = []
    /// Per-connection sessions whose creation the store did not confirm (it went away):
    /// recorded again, from a fresh scene, once it is back (``SessionStore/recover()``).
    var unrecorded: Set<String> = []
    /// Those waiting for a new session's record (``SessionStore/resumeOrCreate(scene:token:parameters:screenPath:clientAddress:completion:)``), by token.
    var creating: [String: [(Bool) -> Void]] = [:]
}

/// A store's durable side: its persistence, its shared scenes across processes, and the
/// state of both (``DurableState``). The store tells it what happens to its sessions
/// (``SessionStoreBacking``). Loop-confined.
final class DurableSessions: SessionStoreBacking {
    unowned let store: SessionStore
    let persistence: SessionPersistence?
    var sharedScenes: SharedSceneCluster?
    var state = DurableState()

    init(store: SessionStore, persistence: SessionPersistence?) {
        self.store = store
        self.persistence = persistence
    }

    var refusesNewSessions: Bool {
        guard let persistence else { return false }
        return !persistence.isAvailable || state.isDraining
    }

    var spansProcesses: Bool { sharedScenes != nil }

    func created(_ session: Session, minted: Bool) {
        guard persistence != nil else { return }
        if session.scene.sharing == .perConnection { store.persist(session) }
        if sharedScenes != nil, session.scene.sharing == .shared, minted { store.recordShared(session) }
    }

    func resumedShared(_ session: Session) {
        store.adoptShared(session)
    }

    func ending(_ session: Session, reason: String) {
        // Ended sessions leave no keys; a shutdown leaves them for another process.
        let sharedEpoch = state.sharedRecords.removeValue(forKey: session.id)
        if let epoch = session.journal?.epoch ?? sharedEpoch, reason != "shutdown", reason != Session.movedReason {
            store.deleteKeys(token: session.id, epoch: epoch)
        }
    }

    func built(sharedHost host: SceneHost) {
        sharedScenes?.attach(host)
    }
}

/// Sessions made durable through a ``SessionPersistence``: creation, takeover by token,
/// TTL refresh, recovery after store trouble, and the drain on shutdown.
extension SessionStore {
    /// A store whose per-connection sessions are made durable through `persistence`
    /// (`--store`; nil: memory only). See ``init(registry:configuration:scheduler:flushScheduler:metrics:)``.
    public convenience init(registry: SceneRegistry, configuration: Configuration = Configuration(),
                            scheduler: SchedulerType = MainScheduler.instance,
                            flushScheduler: ImmediateSchedulerType = MainScheduler.asyncInstance,
                            metrics: Metrics = Metrics(), persistence: SessionPersistence?) {
        self.init(registry: registry, configuration: configuration, scheduler: scheduler, flushScheduler: flushScheduler,
                  metrics: metrics)
        guard persistence != nil else { return }
        backing = DurableSessions(store: self, persistence: persistence)
        startPersistence()
    }

    /// The durable side, if any.
    var durableSessions: DurableSessions? { backing as? DurableSessions }

    /// Where per-connection sessions are made durable (`--store`); nil: memory only.
    public var persistence: SessionPersistence? { durableSessions?.persistence }

    /// Makes shared scenes span every process on the same Redis; nil (the default): each
    /// process has its own instance of a shared scene. Set it before the first session.
    public var sharedScenes: SharedSceneCluster? {
        get { durableSessions?.sharedScenes }
        set {
            if durableSessions == nil { backing = DurableSessions(store: self, persistence: nil) }
            durableSessions?.sharedScenes = newValue
        }
    }

    /// The durable side's state (an empty one without a store).
    var durable: DurableState {
        get { durableSessions?.state ?? DurableState() }
        _modify {
            if let durableSessions {
                yield &durableSessions.state
            } else {
                var scratch = DurableState()
                yield &scratch
            }
        }
    }

    /// Whether the store is draining (shutting down): events are answered
    /// `store-unavailable` so the client sends them again to the next server.
    public var isDraining: Bool { durable.isDraining }

    func startPersistence() {
        guard let persistence else { return }
        persistence.onAvailabilityChange = { [weak self] available in
            if available {
                self?.startRefreshing()
                self?.retryDeletes()
                self?.recover()
            }
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
        guard let persistence, durable.refreshTimer == nil, !isDraining else { return }
        // Often enough that a key never outlives its owner's interest, and that an idle
        // owner learns of a takeover (its refresh is fenced) well within the TTL.
        let ttl = Int(persistence.timeToLive.components.seconds)
        let period = max(1, min(10, ttl / 3))
        // Sessions nobody is connected to are checked every tick: a copy left behind by a
        // takeover is one of them, and ends within a tick instead of a whole round.
        let tick = min(2, period)
        durable.ticksPerRound = max(1, period / tick)
        durable.refreshTimer = scheduler.schedulePeriodic((), startAfter: .seconds(tick), period: .seconds(tick)) { [weak self] state in
            self?.refreshAll()
            return state
        }
    }

    /// Records a new per-connection session in the store.
    func persist(_ session: Session) {
        guard let persistence else { return }
        let restoration = session.scene.restoration
        session.journal = SessionJournal(epoch: 1, restoration: restoration)
        let stored = StoredSession(token: session.id, scene: session.sceneName,
                                   createdAt: session.createdAt.timeIntervalSince1970, restoration: restoration,
                                   parameters: session.sceneParameters)
        durable.creating[session.id] = []
        persistence.create(stored) { [weak self, weak session] result in
            if let self, let waiting = self.durable.creating.removeValue(forKey: stored.token) {
                let made: Bool
                if case .success = result { made = true } else { made = false }
                for waiter in waiting { waiter(made) }
            }
            guard case .failure(let error) = result, let self, let session, !session.isEnded else { return }
            if case .unavailable = error, let journal = session.journal {
                // Kept (its client stays, and its resume here finds it): no event of it was
                // acknowledged, so it is recorded afresh when the store is back.
                self.log("session \(session.shortID) could not be stored yet: \(error)")
                self.durable.unrecorded.insert(session.id)
                journal.isDiverged = true
                journal.owesScene = true
                return
            }
            // Its events could not be journaled: let the client start over (it resumes
            // at once on 4001 "session moved", and gets a new session with its form data).
            self.log("session \(session.shortID) could not be stored: \(error)")
            self.end(session, reason: Session.movedReason)
        }
    }

    // MARK: - Shared scenes' sessions

    /// Records a new session of a shared scene in the store (scene name only, at epoch
    /// 1), so that another process finds its token (``session(id:completion:)``).
    func recordShared(_ session: Session) {
        guard let persistence else { return }
        durable.sharedRecords[session.id] = 1
        let stored = StoredSession(token: session.id, scene: session.sceneName,
                                   createdAt: session.createdAt.timeIntervalSince1970, restoration: .none)
        let token = session.id
        persistence.create(stored) { [weak self] result in
            guard case .failure(let error) = result, let self, self.durable.sharedRecords[token] == 1 else { return }
            self.durable.sharedRecords[token] = nil
            if case .unavailable = error { return }  // not made: recorded by the next refresh (``refreshAll()``)
            // Another process has the token's record: this copy is a stale one.
            if let session = self.byID[token] { self.end(session, reason: Session.movedReason) }
        }
    }

    /// Takes over the store record of a shared scene's session resumed here under its
    /// token (recording it if the store has none).
    func adoptShared(_ session: Session) {
        guard let persistence, persistence.isAvailable, !isDraining else { return }
        persistence.takeOver(token: session.id, scene: session.sceneName) { [weak self, weak session] result in
            guard let self, let session, !session.isEnded, self.byID[session.id] === session else { return }
            switch result {
            case .success(let stored?): self.durable.sharedRecords[session.id] = stored.epoch
            case .success(nil): self.recordShared(session)
            case .failure(.otherScene(let other)):
                // Resumed while the store was unavailable with the token of another
                // scene's session: that session is left alone; this one starts over.
                self.log("session \(session.shortID) is a session of '\(other)' in the store, not '\(session.sceneName)'")
                self.end(session, reason: Session.movedReason)
            case .failure: break
            }
        }
    }

    // MARK: - Deleting

    /// The most deletions kept for retry while the store is unavailable.
    static var maxPendingDeletes: Int { 10_000 }

    /// Deletes an ended session's keys (fenced by `epoch`); kept for retry if the store
    /// cannot take it now, so no keys wait for their TTL.
    func deleteKeys(token: String, epoch: Int64) {
        guard let persistence else { return }
        guard persistence.isAvailable else { return keepDelete(token: token, epoch: epoch) }
        persistence.delete(token: token, epoch: epoch) { [weak self] result in
            if case .failure(.unavailable) = result { self?.keepDelete(token: token, epoch: epoch) }
        }
    }

    private func keepDelete(token: String, epoch: Int64) {
        durable.pendingDeletes.append((token, epoch))
        if durable.pendingDeletes.count > Self.maxPendingDeletes { durable.pendingDeletes.removeFirst() }
    }

    /// Sends the deletions kept while the store was unavailable (each still fenced: a
    /// session taken over since has a newer epoch and keeps its keys).
    func retryDeletes() {
        guard let persistence, persistence.isAvailable, !durable.pendingDeletes.isEmpty else { return }
        let pending = durable.pendingDeletes
        durable.pendingDeletes = []
        for (token, epoch) in pending { deleteKeys(token: token, epoch: epoch) }
    }

    // MARK: - Takeover

    /// The session with `token` if it is live here or in the store (taken over: its
    /// epoch raised, its scene rebuilt here), and of scene `name`; else a new session of
    /// `name`. Without a store, as ``resumeOrCreate(scene:token:clientAddress:)``.
    public func resumeOrCreate(scene name: String, token: String?, parameters: [String: String] = [:],
                               screenPath: [String] = [], clientAddress: String? = nil,
                               completion: @escaping (Result<(session: Session, resumed: Bool), SessionError>) -> Void) {
        let create = { [self] () -> Result<(session: Session, resumed: Bool), SessionError> in
            do throws(SessionError) {
                return .success(try resumeOrCreate(scene: name, token: token, parameters: parameters,
                                                   screenPath: screenPath, clientAddress: clientAddress))
            } catch {
                return .failure(error)
            }
        }
        guard let persistence, let definition = registry.scene(named: name) else { return completion(create()) }
        guard let token else { return whenRecorded(create(), completion: completion) }
        if definition.sharing == .shared {
            // A shared scene's token not held here is checked in the store first, so a token
            // of another scene's session is never taken over (its epoch stays as it is).
            guard sharedScenes != nil, byID[token] == nil, Self.isWellFormed(token: token), persistence.isAvailable,
                  !isDraining else { return completion(create()) }
            persistence.takeOver(token: token, scene: name) { [self] result in
                if case .failure(.otherScene(let other)) = result {
                    return completion(refuseResume(of: token, as: name, sessionOf: other, create: create))
                }
                completion(resumeShared(scene: name, token: token, taken: result, create: create))
            }
            return
        }
        session(id: token, scene: name) { [self] result in
            switch result {
            case .success(let session?) where session.sceneName == name && !session.isEnded
                                              && session.sceneParameters == parameters:
                completion(.success((session, true)))
            case .success:
                whenRecorded(create(), completion: completion)
            case .failure(let error):
                completion(.failure(error))
            }
        }
    }

    /// Hands a new per-connection session out once the store has its record, so a client
    /// never holds a token that a resume on another process could not find (the store went
    /// away just then: `store-unavailable`, and the session is ended).
    private func whenRecorded(_ result: Result<(session: Session, resumed: Bool), SessionError>,
                              completion: @escaping (Result<(session: Session, resumed: Bool), SessionError>) -> Void) {
        guard case .success(let (session, false)) = result, durable.creating[session.id] != nil else { return completion(result) }
        durable.creating[session.id]?.append { [weak self] made in
            guard made else {
                self?.end(session, reason: "store unavailable")
                return completion(.failure(.storeUnavailable))
            }
            completion(session.isEnded ? .failure(.storeUnavailable) : result)
        }
    }

    /// A resume with the token of another scene's session: refused, as for an unknown
    /// token (a new session, `resumed: false`); that session is left as it is.
    private func refuseResume(of token: String, as name: String, sessionOf other: String,
                              create: () -> Result<(session: Session, resumed: Bool), SessionError>)
        -> Result<(session: Session, resumed: Bool), SessionError> {
        log("resume of \(token.prefix(6)) as '\(name)' refused: the token is a session of '\(other)'")
        do throws(SessionError) {
            return .success((try createSession(scene: name), false))
        } catch {
            return .failure(error)
        }
    }

    /// A shared scene's session resumed here under `token` once the store answered the
    /// takeover (`taken`): a thin session holding the record it took (or a new record).
    private func resumeShared(scene name: String, token: String, taken: Result<StoredSession?, SessionPersistenceError>,
                              create: () -> Result<(session: Session, resumed: Bool), SessionError>)
        -> Result<(session: Session, resumed: Bool), SessionError> {
        if byID[token] != nil { return create() }  // resumed here meanwhile
        let session: Session
        do throws(SessionError) {
            session = try createSession(scene: name, parameters: [:], screenPath: [], clientAddress: nil, token: token)
        } catch {
            return .failure(error)
        }
        switch taken {
        case .success(let stored?): durable.sharedRecords[token] = stored.epoch
        case .success(nil): recordShared(session)
        case .failure: break  // recorded by the next refresh (``refreshAll()``)
        }
        metrics.sessionsResumed += 1
        log("session \(session.shortID) resumed (\(name), shared across processes)")
        return .success((session, true))
    }

    /// The session with token `id`: live here, or taken over from the store (nil when
    /// neither has it). Without a store, as ``session(id:)``.
    ///
    /// A store-backed session held here is checked first (a fenced TTL refresh, one round
    /// trip): if another process took it over meanwhile, this copy is stale — it is
    /// dropped and the session taken back, so a resume never shows an old state.
    public func session(id token: String, completion: @escaping (Result<Session?, SessionError>) -> Void) {
        session(id: token, scene: nil, completion: completion)
    }

    /// As ``session(id:completion:)``; with `scene`, a session of another scene in the
    /// store is not taken over (nil, as for an unknown token).
    func session(id token: String, scene: String?, completion: @escaping (Result<Session?, SessionError>) -> Void) {
        guard let persistence else { return completion(.success(byID[token])) }
        if let session = byID[token] {
            let epoch: Int64?  // what this process holds of it in the store, if anything
            if let journal = session.journal {
                epoch = journal.isDiverged ? nil : journal.epoch
            } else {
                epoch = durable.sharedRecords[token]
            }
            guard let epoch else { return completion(.success(session)) }
            guard persistence.isAvailable else {
                // It cannot be checked: it may be a stale copy (taken over elsewhere). A
                // resume (`scene`) is refused until the store is back, so a client never
                // goes on with an old state (its `bye` would end only this copy). HTTP
                // lookups get it: their writes are refused anyway, and a DELETE ends it
                // here and deletes its keys (fenced) once the store is back.
                return completion(scene == nil ? .success(session) : .failure(.storeUnavailable))
            }
            persistence.refresh(token: token, epoch: epoch) { [weak self] result in
                guard let self else { return }
                guard case .failure(.fenced) = result else { return completion(.success(session)) }
                self.drop(session)
                self.session(id: token, scene: scene, completion: completion)
            }
            return
        }
        guard persistence.isAvailable, !isDraining else { return completion(.failure(.storeUnavailable)) }
        if durable.takeovers[token] != nil {
            durable.takeovers[token]?.append(completion)
            return
        }
        durable.takeovers[token] = [completion]
        persistence.takeOver(token: token, scene: scene) { [weak self] result in
            guard let self else { return }
            let waiting = self.durable.takeovers.removeValue(forKey: token) ?? []
            let outcome: Result<Session?, SessionError>
            switch result {
            case .failure(.otherScene(let other)):
                // Left alone: a resume as `scene` is answered as for an unknown token.
                self.log("resume of \(token.prefix(6)) as '\(scene ?? "")' refused: the token is a session of '\(other)'")
                outcome = .success(nil)
            case .failure(let error):
                self.log("takeover of \(token.prefix(6)) failed: \(error)")
                outcome = .failure(.storeUnavailable)
            case .success(nil):
                outcome = .success(nil)
            case .success(let stored?):
                if let live = self.byID[token] {
                    outcome = .success(live)
                } else {
                    outcome = self.restore(stored)
                }
            }
            for completion in waiting { completion(outcome) }
        }
    }

    /// Rebuilds a session taken over from the store.
    private func restore(_ stored: StoredSession) -> Result<Session?, SessionError> {
        guard let definition = registry.scene(named: stored.scene) else { return .success(nil) }
        if definition.sharing == .shared {
            return restoreShared(stored)
        }
        guard byID.count < configuration.maxSessions else {
            metrics.sessionsRefused += 1
            return .failure(.tooManySessions)
        }
        let host: SceneHost
        do throws(ProtocolError) {
            host = try self.host(for: definition, parameters: stored.parameters)
        } catch {
            return .failure(.sceneFailed(error.message))
        }
        let session = Session(id: stored.token, host: host, clientAddress: nil,
                              createdAt: Date(timeIntervalSince1970: stored.createdAt))
        session.store = self
        session.sceneParameters = stored.parameters
        if let rate = configuration.maxEventsPerSecond, rate > 0 {
            session.rateLimiter = RateLimiter(rate: Double(rate), burst: Double(rate))
        }
        host.attach(session)
        session.journal = SessionJournal(stored)
        let replayed = Self.restoreState(stored, into: host, session: session)
        byID[session.id] = session
        metrics.sessionsResumed += 1
        log("session \(session.shortID) taken over (\(stored.scene), epoch \(stored.epoch), \(stored.restoration.rawValue)\(stored.restoration == .replay ? ", \(replayed) events replayed" : "")\(session.journal?.isRestoredInexactly == true ? ", restored inexactly" : ""))")
        startGraceTimer(session)
        return .success(session)
    }

    /// A shared scene's session found in the store: a thin session under its token, on
    /// the shared instance (its state lives in the scene, not in the session).
    private func restoreShared(_ stored: StoredSession) -> Result<Session?, SessionError> {
        guard sharedScenes != nil else { return .success(nil) }
        do throws(SessionError) {
            let session = try createSession(scene: stored.scene, parameters: [:], screenPath: [], clientAddress: nil,
                                            token: stored.token)
            durable.sharedRecords[session.id] = stored.epoch
            metrics.sessionsResumed += 1
            log("session \(session.shortID) taken over (\(stored.scene), shared across processes)")
            return .success(session)
        } catch {
            return .failure(error)
        }
    }

    /// Brings a fresh scene instance to the stored state; the number of events replayed.
    @discardableResult
    static func restoreState(_ stored: StoredSession, into host: SceneHost, session: Session) -> Int {
        var replayed = 0
        switch stored.restoration {
        case .replay:
            // Compacted at the cap: the scene as it was then, then the events since.
            if let state = stored.state, !SessionJournal.restoreCompacted(state, into: host) {
                session.journal?.isRestoredInexactly = true  // `"restored": false`
            }
            for json in stored.journal {
                guard case .success(.event(let event)) = MessageDecoder.decode(json) else { continue }
                _ = host.dispatch(event, session: session, client: nil)  // answers discarded
                replayed += 1
            }
        case .encoded:
            if let state = stored.state, let coder = StateCoder(json: state), let restoring = host.controller as? StateRestoring {
                restoring.decodeRestorableState(with: coder)
            }
        case .none:
            break
        }
        host.flush()  // nobody watches yet: what the rebuild changed is in the snapshot
        return replayed
    }

    // MARK: - Upkeep

    private func refreshAll() {
        guard let persistence, persistence.isAvailable, !isDraining else { return }
        retryDeletes()  // those that timed out while the connection stayed up
        durable.refreshTicks &+= 1
        let wholeRound = durable.refreshTicks % durable.ticksPerRound == 0
        var diverged = false
        for session in byID.values {
            guard let journal = session.journal, wholeRound || session.clients.isEmpty else { continue }
            if journal.isDiverged {
                diverged = true
                continue
            }
            persistence.refresh(token: session.id, epoch: journal.epoch) { [weak self, weak session] result in
                if case .failure(.fenced) = result, let self, let session, !session.isEnded {
                    self.log("session \(session.shortID) was taken over elsewhere")
                    self.end(session, reason: Session.movedReason)
                }
            }
        }
        // A shared scene's session made or resumed here while the store was unavailable has
        // no record yet: taken over if a client is here; else only recorded if nobody has
        // the token (taking it over would take it from the process its client went to).
        for session in Array(byID.values) where session.journal == nil && durable.sharedRecords[session.id] == nil
                                               && sharedScenes != nil && session.scene.sharing == .shared {
            if session.clients.isEmpty {
                recordShared(session)
            } else {
                adoptShared(session)
            }
        }
        for (token, epoch) in durable.sharedRecords where wholeRound || byID[token]?.clients.isEmpty ?? true {
            persistence.refresh(token: token, epoch: epoch) { [weak self] result in
                // Taken over elsewhere (or ended there): this copy is stale, as a
                // per-connection session's is; its clients resume where it lives now.
                guard case .failure(.fenced) = result, let self, self.durable.sharedRecords[token] == epoch else { return }
                self.durable.sharedRecords[token] = nil
                if let session = self.byID[token] {
                    self.log("session \(session.shortID) was taken over elsewhere")
                    self.end(session, reason: Session.movedReason)
                }
            }
        }
        if diverged { recover() }
    }

    /// Another process is about to take `token` over (its hint): the writes already made
    /// are answered first (replies come in order, so their acks go out), then the session
    /// is released and ended here (its WebSockets closed with 4001 "session moved"), and
    /// `done` tells the taker. Events arriving meanwhile are refused (the client sends
    /// them again to the new owner).
    func release(token: String, done: @escaping () -> Void) {
        guard let persistence, let session = byID[token], !session.isEnded, let journal = session.journal,
              !journal.isDiverged, !journal.isReleasing, !isDraining else { return done() }
        journal.isReleasing = true
        persistence.release(token: token, epoch: journal.epoch) { [weak self, weak session] result in
            journal.isReleasing = false
            if let self, let session, !session.isEnded, self.byID[token] === session {
                switch result {
                case .success, .failure(.fenced):
                    self.log("session \(session.shortID) released to another process")
                    self.end(session, reason: Session.movedReason)
                case .failure(.unavailable), .failure(.otherScene):
                    break  // the taker's takeover cannot succeed either; keep serving
                }
            }
            done()
        }
    }

    /// Called when a write was fenced: another process owns the session now.
    func drop(_ session: Session) {
        guard !session.isEnded else { return }
        log("session \(session.shortID) was taken over elsewhere (fenced write)")
        end(session, reason: Session.movedReason)
    }

    /// Rebuilds, from the store, every session whose scene got ahead of its journal
    /// while the store was unreachable; their clients get the rebuilt `scene`.
    func recover() {
        guard let persistence, persistence.isAvailable, !isDraining else { return }
        if !durable.unrecorded.isEmpty { durable.unrecorded = durable.unrecorded.filter { byID[$0] != nil } }
        for session in byID.values {
            guard let journal = session.journal, journal.owesScene, !journal.isDiverged else { continue }
            journal.owesScene = false
            let scene = OutgoingMessage(.scene(session.sceneMessage(resumed: true)))
            for client in session.clients { session.send(scene, to: client) }
        }
        for session in byID.values {
            guard let journal = session.journal, journal.isDiverged, !journal.isRecovering else { continue }
            journal.isRecovering = true
            if durable.unrecorded.contains(session.id) {
                recordAgain(session, journal: journal)
                continue
            }
            persistence.takeOver(token: session.id) { [weak self, weak session] result in
                journal.isRecovering = false
                guard let self, let session, !session.isEnded, journal.isDiverged else { return }
                switch result {
                case .success(let stored?):
                    do throws(ProtocolError) {
                        let host = try self.host(for: session.scene, parameters: session.sceneParameters)
                        Self.restoreState(stored, into: host, session: session)
                        journal.adopt(stored)
                        journal.isDiverged = false
                        session.replaceHost(with: host)
                        self.log("session \(session.shortID) rebuilt from the store (epoch \(stored.epoch))")
                    } catch {
                        self.end(session, reason: "scene failed")
                    }
                case .success(nil):
                    self.end(session, reason: "expired")
                case .failure(.fenced):
                    self.end(session, reason: Session.movedReason)
                case .failure:
                    break  // still unreachable: the next refresh or reconnect tries again
                }
            }
        }
    }

    /// Records a session whose creation the store did not confirm: from a fresh scene (no
    /// event of it was acknowledged), at epoch 1. If the first creation did land after all
    /// (the record exists), it is rebuilt from the store as any diverged session.
    private func recordAgain(_ session: Session, journal: SessionJournal) {
        guard let persistence else { return }
        let stored = StoredSession(token: session.id, scene: session.sceneName,
                                   createdAt: session.createdAt.timeIntervalSince1970, restoration: journal.restoration,
                                   parameters: session.sceneParameters)
        persistence.create(stored) { [weak self, weak session] result in
            journal.isRecovering = false
            guard let self, let session, !session.isEnded, journal.isDiverged else { return }
            switch result {
            case .success:
                self.durable.unrecorded.remove(session.id)
                do throws(ProtocolError) {
                    let host = try self.host(for: session.scene, parameters: session.sceneParameters)
                    host.flush()
                    journal.epoch = 1
                    journal.isDiverged = false
                    journal.owesScene = false
                    session.replaceHost(with: host)
                    self.log("session \(session.shortID) recorded in the store (a fresh scene: none of its events was acknowledged)")
                } catch {
                    self.end(session, reason: "scene failed")
                }
            case .failure(.unavailable):
                break  // the next refresh or reconnect tries again
            case .failure:
                self.durable.unrecorded.remove(session.id)  // it landed: rebuilt from the store next
                self.recover()
            }
        }
    }

    /// Graceful drain (SIGTERM with a store): refuses new writes, releases every
    /// session's ownership and the process lease once the writes already made are
    /// answered (so their acks go out), then calls `completion`. Without a store, at once.
    public func drain(completion: @escaping () -> Void) {
        guard let persistence else { return completion() }
        durable.isDraining = true
        durable.refreshTimer?.dispose()
        durable.refreshTimer = nil
        for session in byID.values {
            guard let journal = session.journal, !journal.isDiverged else { continue }
            persistence.release(token: session.id, epoch: journal.epoch) { _ in }
        }
        persistence.stop(completion: completion)
    }
}
