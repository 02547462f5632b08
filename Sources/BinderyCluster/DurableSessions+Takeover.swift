import BinderyProtocol
import BinderyRuntime
import Foundation

/// Resumes and takeovers by token: a session not held here is taken from the store
/// (``DurableSessionState/takingOver(waiters:)``), a new one is handed out once recorded
/// (``DurableSessionState/creating(waiters:)``), and a shared scene's session takes its
/// record over (``DurableSessionState/sharedRecord(epoch:)``).
extension DurableSessions {
    typealias Resumed = Result<(session: Session, resumed: Bool), SessionError>

    /// See ``SessionStore/resumeOrCreate(scene:token:parameters:screenPath:clientAddress:completion:)``.
    func resumeOrCreate(scene name: String, token: String?, parameters: [String: String], screenPath: [String],
                        clientAddress: String?, completion: @escaping (Resumed) -> Void) {
        let store = self.store
        let create = { () -> Resumed in
            do throws(SessionError) {
                return .success(try store.resumeOrCreate(scene: name, token: token, parameters: parameters,
                                                         screenPath: screenPath, clientAddress: clientAddress))
            } catch {
                return .failure(error)
            }
        }
        guard let persistence, let definition = store.registry.scene(named: name) else { return completion(create()) }
        guard let token else { return whenRecorded(create(), completion: completion) }
        if definition.sharing == .shared {
            // A shared scene's token not held here is checked in the store first, so a token
            // of another scene's session is never taken over (its epoch stays as it is).
            guard sharedScenes != nil, store.byID[token] == nil, SessionStore.isWellFormed(token: token), persistence.isAvailable,
                  !isDraining else { return completion(create()) }
            persistence.takeOver(token: token, scene: name) { [self] result in
                if case .failure(.otherScene(let other)) = result {
                    return completion(refuseResume(of: token, as: name, sessionOf: other))
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
    private func whenRecorded(_ result: Resumed, completion: @escaping (Resumed) -> Void) {
        guard case .success(let (session, false)) = result, case .creating? = machine.state(of: session.id) else {
            return completion(result)
        }
        let waiter = wait(.record { [weak self] made in
            guard made else {
                self?.store.end(session, reason: "store unavailable")
                return completion(.failure(.storeUnavailable))
            }
            completion(session.isEnded ? .failure(.storeUnavailable) : result)
        })
        handle(.recordAwaited(token: session.id, waiter: waiter))
    }

    /// A resume with the token of another scene's session: refused, as for an unknown
    /// token (a new session, `resumed: false`); that session is left as it is.
    private func refuseResume(of token: String, as name: String, sessionOf other: String) -> Resumed {
        store.log("resume of \(token.prefix(6)) as '\(name)' refused: the token is a session of '\(other)'")
        do throws(SessionError) {
            return .success((try store.createSession(scene: name), false))
        } catch {
            return .failure(error)
        }
    }

    /// A shared scene's session resumed here under `token` once the store answered the
    /// takeover (`taken`): a thin session holding the record it took (or a new record).
    private func resumeShared(scene name: String, token: String, taken: Result<StoredSession?, SessionPersistenceError>,
                              create: () -> Resumed) -> Resumed {
        if store.byID[token] != nil { return create() }  // resumed here meanwhile
        let session: Session
        do throws(SessionError) {
            session = try store.createSession(scene: name, parameters: [:], screenPath: [], clientAddress: nil, token: token)
        } catch {
            return .failure(error)
        }
        // A failure leaves it unrecorded: recorded by the next refresh (``refreshSessions(wholeRound:)``).
        handle(.sharedTakeoverAnswered(token: token, taken))
        store.metrics.sessionsResumed += 1
        store.log("session \(session.shortID) resumed (\(name), shared across processes)")
        return .success((session, true))
    }

    /// See ``SessionStore/session(id:completion:)``; with `scene`, a session of another
    /// scene in the store is not taken over (nil, as for an unknown token).
    func session(id token: String, scene: String?, completion: @escaping (Result<Session?, SessionError>) -> Void) {
        guard let persistence else { return completion(.success(store.byID[token])) }
        if let session = store.byID[token] {
            let epoch: Int64?  // what this process holds of it in the store, if anything
            if let journal = session.journal {
                epoch = journal.isDiverged ? nil : journal.epoch
            } else if case .sharedRecord(let held)? = machine.state(of: token) {
                epoch = held
            } else {
                epoch = nil
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
        let waiter = wait(.takeover(completion))
        handle(.takeoverRequested(token: token, scene: scene, waiter: waiter))
    }

    /// What a takeover's waiters get: a found session rebuilt here (or the one here now).
    func takeoverResult(token: String, _ outcome: DurableTakeoverOutcome) -> Result<Session?, SessionError> {
        switch outcome {
        case .otherScene(let other):
            // Left alone: a resume as another scene is answered as for an unknown token.
            store.log("resume of \(token.prefix(6)) refused: the token is a session of '\(other)'")
            return .success(nil)
        case .unavailable(let reason):
            if let reason { store.log("takeover of \(token.prefix(6)) failed: \(reason)") }
            return .failure(.storeUnavailable)
        case .none:
            return .success(nil)
        case .found(let stored):
            if let live = store.byID[token] { return .success(live) }
            return restore(stored)
        }
    }

    /// Rebuilds a session taken over from the store.
    private func restore(_ stored: StoredSession) -> Result<Session?, SessionError> {
        guard let definition = store.registry.scene(named: stored.scene) else { return .success(nil) }
        if definition.sharing == .shared {
            return restoreShared(stored)
        }
        guard store.byID.count < store.configuration.maxSessions else {
            store.metrics.sessionsRefused += 1
            return .failure(.tooManySessions)
        }
        let host: SceneHost
        do throws(ProtocolError) {
            host = try store.host(for: definition, parameters: stored.parameters)
        } catch {
            return .failure(.sceneFailed(error.message))
        }
        let session = Session(id: stored.token, host: host, clientAddress: nil,
                              createdAt: Date(timeIntervalSince1970: stored.createdAt))
        session.store = store
        session.sceneParameters = stored.parameters
        if let rate = store.configuration.maxEventsPerSecond, rate > 0 {
            session.rateLimiter = RateLimiter(rate: Double(rate), burst: Double(rate))
        }
        host.attach(session)
        session.journal = SessionJournal(stored)
        let replayed = Self.restoreState(stored, into: host, session: session)
        store.byID[session.id] = session
        store.metrics.sessionsResumed += 1
        store.log("session \(session.shortID) taken over (\(stored.scene), epoch \(stored.epoch), \(stored.restoration.rawValue)\(stored.restoration == .replay ? ", \(replayed) events replayed" : "")\(session.journal?.isRestoredInexactly == true ? ", restored inexactly" : ""))")
        store.startGraceTimer(session)
        return .success(session)
    }

    /// A shared scene's session found in the store: a thin session under its token, on
    /// the shared instance (its state lives in the scene, not in the session).
    private func restoreShared(_ stored: StoredSession) -> Result<Session?, SessionError> {
        guard sharedScenes != nil else { return .success(nil) }
        do throws(SessionError) {
            let session = try store.createSession(scene: stored.scene, parameters: [:], screenPath: [], clientAddress: nil,
                                                  token: stored.token)
            handle(.sharedTakeoverAnswered(token: session.id, .success(stored)))
            store.metrics.sessionsResumed += 1
            store.log("session \(session.shortID) taken over (\(stored.scene), shared across processes)")
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

    /// Another process is about to take `token` over (its hint): the writes already made
    /// are answered first (replies come in order, so their acks go out), then the session
    /// is released and ended here (its WebSockets closed with 4001 "session moved"), and
    /// `done` tells the taker. Events arriving meanwhile are refused (the client sends
    /// them again to the new owner).
    func release(token: String, done: @escaping () -> Void) {
        guard let persistence, let session = store.byID[token], !session.isEnded, let journal = session.journal,
              !journal.isDiverged, !journal.isReleasing, !isDraining else { return done() }
        journal.isReleasing = true
        persistence.release(token: token, epoch: journal.epoch) { [weak self, weak session] result in
            journal.isReleasing = false
            if let self, let session, !session.isEnded, self.store.byID[token] === session {
                switch result {
                case .success, .failure(.fenced):
                    self.store.log("session \(session.shortID) released to another process")
                    self.store.end(session, reason: Session.movedReason)
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
        store.log("session \(session.shortID) was taken over elsewhere (fenced write)")
        store.end(session, reason: Session.movedReason)
    }
}
