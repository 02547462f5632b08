import BinderyProtocol
import BinderyRuntime
import Foundation

/// Where per-connection sessions are kept durable, so any process can take one over:
/// "append these events", "take over this token", "release it", "delete it". The
/// ``SessionStore`` asks; implementations hide leases, epochs and Lua.
///
/// Every write names the session's fencing epoch (``StoredSession/epoch``); a write with
/// an epoch that is no longer the session's fails with ``SessionPersistenceError/fenced``,
/// so a stale owner (paused, partitioned, taken over) can never write again.
/// Completions of one session's writes run in the order the writes were made.
///
/// Two implementations: ``InMemorySessionPersistence`` (one process, or several stores
/// on one loop in tests) and ``RedisSessionPersistence``. Without any (the default), a
/// ``SessionStore`` keeps sessions in memory only, as before, at no cost.
///
/// Loop-confined: call it and get its completions on the loop thread.
public protocol SessionPersistence: AnyObject {
    /// Whether writes can be made now (false while the store is unreachable).
    var isAvailable: Bool { get }
    /// Called on the loop after ``isAvailable`` changes.
    var onAvailabilityChange: ((Bool) -> Void)? { get set }
    /// Starts (connects, takes the process lease). Idempotent.
    func start()
    /// Records a new session owned here, at epoch 1; ``SessionPersistenceError/fenced``
    /// if the token is already recorded.
    func create(_ session: StoredSession, completion: @escaping (Result<Void, SessionPersistenceError>) -> Void)
    /// Appends one accepted event (JSON, nil for none) to the session's journal, fenced by
    /// `epoch`; refreshes its TTL. A `state` (the scene's encoded state after the event)
    /// replaces the journal instead (compaction; `.encoded` scenes keep no journal).
    func append(token: String, epoch: Int64, seq: Int?, event: String?, state: String?,
                completion: @escaping (Result<Void, SessionPersistenceError>) -> Void)
    /// Takes the session over: raises its epoch, makes this process the owner and
    /// returns what rebuilds it; nil when there is no such session (unknown or expired).
    /// With `scene`, only a session of that scene: one of another scene is left as it is
    /// (its epoch untouched) and the answer is ``SessionPersistenceError/otherScene(_:)``.
    func takeOver(token: String, scene: String?, completion: @escaping (Result<StoredSession?, SessionPersistenceError>) -> Void)
    /// Refreshes the session's TTL, fenced by `epoch` (also how an idle owner learns it
    /// was taken over).
    func refresh(token: String, epoch: Int64, completion: @escaping (Result<Void, SessionPersistenceError>) -> Void)
    /// Gives ownership up (drain): another process may take over at once.
    func release(token: String, epoch: Int64, completion: @escaping (Result<Void, SessionPersistenceError>) -> Void)
    /// Deletes the session's keys if `epoch` is still its epoch (an ended session); a
    /// newer epoch or no keys is a success (nothing of ours to delete).
    func delete(token: String, epoch: Int64, completion: @escaping (Result<Void, SessionPersistenceError>) -> Void)
    /// Releases the process lease and closes; `completion` once the writes made before
    /// have been answered.
    func stop(completion: @escaping () -> Void)
    /// How long a session outlives its owner: the grace period plus a margin.
    var timeToLive: Duration { get }
    /// Called on the loop when another process is about to take over a session owned
    /// here (the takeover hint): release it after the writes already made, close its
    /// connections, then call `done`. Stores without hints never call it.
    var onReleaseRequest: ((_ token: String, _ done: @escaping () -> Void) -> Void)? { get set }
}

extension SessionPersistence {
    /// No hints: a takeover raises the epoch at once.
    public var onReleaseRequest: ((_ token: String, _ done: @escaping () -> Void) -> Void)? {
        get { nil }
        set {}  // swiftlint:disable:this unused_setter_value
    }
}

/// A session as the store keeps it.
public struct StoredSession: Equatable, Sendable {
    /// The token.
    public var token: String
    /// The scene's name.
    public var scene: String
    /// When it was created (seconds since 1970).
    public var createdAt: Double
    /// The fencing epoch (1 at creation, raised by each takeover).
    public var epoch: Int64
    /// The seq of the last journaled event, if any carried one.
    public var lastSeq: Int?
    /// How it is rebuilt.
    public var restoration: SceneRestoration
    /// The journal: accepted events as JSON client messages, oldest first.
    public var journal: [String]
    /// The scene's last encoded state (``StateCoder/json``), for ``SceneRestoration/encoded``.
    public var state: String?
    /// The owner (`process:incarnation`) as recorded.
    public var owner: String
    /// The parameters the scene was opened with (``Session/sceneParameters``).
    public var parameters: [String: String]

    /// A stored session.
    public init(token: String, scene: String, createdAt: Double, epoch: Int64 = 1, lastSeq: Int? = nil,
                restoration: SceneRestoration, journal: [String] = [], state: String? = nil, owner: String = "",
                parameters: [String: String] = [:]) {
        self.parameters = parameters
        self.token = token
        self.scene = scene
        self.createdAt = createdAt
        self.epoch = epoch
        self.lastSeq = lastSeq
        self.restoration = restoration
        self.journal = journal
        self.state = state
        self.owner = owner
    }
}

extension SessionPersistence {
    /// Takes the session over whatever its scene (``takeOver(token:scene:completion:)``).
    public func takeOver(token: String, completion: @escaping (Result<StoredSession?, SessionPersistenceError>) -> Void) {
        takeOver(token: token, scene: nil, completion: completion)
    }
}

/// Why a store operation failed.
public enum SessionPersistenceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The session's epoch moved on (another process took it over) or its keys are gone:
    /// this process must drop it and never write for it again.
    case fenced
    /// The store could not be reached or did not answer in time; whether a write
    /// happened is unknown.
    case unavailable(String)
    /// A takeover named a scene, and the session is one of another scene (named here):
    /// nothing was changed.
    case otherScene(String)

    /// A readable message.
    public var description: String {
        switch self {
        case .fenced: return "the session is owned by another process"
        case .unavailable(let reason): return "the session store is unavailable: \(reason)"
        case .otherScene(let scene): return "the session is one of scene '\(scene)'"
        }
    }
}
