import BinderyProtocol
import BinderyRuntime
import Foundation
import RxCore

/// Sessions made durable through a ``SessionPersistence``: creation, takeover by token,
/// TTL refresh, recovery after store trouble, and the drain on shutdown. The work and its
/// state are the store's ``DurableSessions`` (its ``SessionStore/backing``); these are the
/// public doors to it.
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
        let durable = DurableSessions(store: self, persistence: persistence)
        backing = durable
        durable.start()
    }

    /// The durable side, if any.
    package var durableSessions: DurableSessions? { backing as? DurableSessions }

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

    /// Whether the store is draining (shutting down): events are answered
    /// `store-unavailable` so the client sends them again to the next server.
    public var isDraining: Bool { durableSessions?.isDraining ?? false }

    /// The session with `token` if it is live here or in the store (taken over: its
    /// epoch raised, its scene rebuilt here), and of scene `name`; else a new session of
    /// `name`. Without a store, as ``resumeOrCreate(scene:token:clientAddress:)``.
    public func resumeOrCreate(scene name: String, token: String?, parameters: [String: String] = [:],
                               screenPath: [String] = [], clientAddress: String? = nil,
                               completion: @escaping (Result<(session: Session, resumed: Bool), SessionError>) -> Void) {
        guard let durableSessions else {
            do throws(SessionError) {
                return completion(.success(try resumeOrCreate(scene: name, token: token, parameters: parameters,
                                                              screenPath: screenPath, clientAddress: clientAddress)))
            } catch {
                return completion(.failure(error))
            }
        }
        durableSessions.resumeOrCreate(scene: name, token: token, parameters: parameters, screenPath: screenPath,
                                       clientAddress: clientAddress, completion: completion)
    }

    /// The session with token `id`: live here, or taken over from the store (nil when
    /// neither has it). Without a store, as ``session(id:)``.
    ///
    /// A store-backed session held here is checked first (a fenced TTL refresh, one round
    /// trip): if another process took it over meanwhile, this copy is stale — it is
    /// dropped and the session taken back, so a resume never shows an old state.
    public func session(id token: String, completion: @escaping (Result<Session?, SessionError>) -> Void) {
        guard let durableSessions else { return completion(.success(byID[token])) }
        durableSessions.session(id: token, scene: nil, completion: completion)
    }

    /// Graceful drain (SIGTERM with a store): refuses new writes, releases every
    /// session's ownership and the process lease once the writes already made are
    /// answered (so their acks go out), then calls `completion`. Without a store, at once.
    public func drain(completion: @escaping () -> Void) {
        guard let durableSessions else { return completion() }
        durableSessions.drain(completion: completion)
    }
}
