import BinderyProtocol
import BinderyRuntime
import Foundation

/// A ``SessionPersistence`` in this process's memory: the same rules as the Redis one
/// (epochs, fencing, takeover) with no network, answering at once. Several
/// ``SessionStore``s on one loop can share one to act as processes of a cluster (tests);
/// ``isAvailable`` can be switched off to play store trouble (only the last store made
/// with it hears ``onAvailabilityChange``). Loop-confined.
public final class InMemorySessionPersistence: SessionPersistence {
    /// The sessions, by token.
    public private(set) var sessions: [String: StoredSession] = [:]
    /// Writes made (appends, creations, refreshes, releases, deletions).
    public private(set) var writes = 0
    /// See ``SessionPersistence/timeToLive``.
    public let timeToLive: Duration
    /// See ``SessionPersistence/onAvailabilityChange``.
    public var onAvailabilityChange: ((Bool) -> Void)?

    /// Whether writes succeed; set it to false to make every write fail `unavailable`.
    public var isAvailable = true {
        didSet { if oldValue != isAvailable { onAvailabilityChange?(isAvailable) } }
    }

    /// Holds the appends' completions (the write is made, the reply is late) until
    /// ``releaseReplies(failing:)``: plays a slow store or one lost mid-write.
    public var holdsReplies = false
    private var heldReplies: [(Result<Void, SessionPersistenceError>) -> Void] = []

    /// Completes the held appends in order: with their result, or (`failing`) as if the
    /// store was lost before answering (their writes may have been made).
    public func releaseReplies(failing: Bool = false) {
        let held = heldReplies
        heldReplies = []
        for completion in held { completion(failing ? .failure(.unavailable("lost before the reply")) : .success(())) }
    }

    /// An empty store whose sessions would outlive their owner by `timeToLive`.
    public init(timeToLive: Duration = .seconds(40)) {
        self.timeToLive = timeToLive
    }

    /// Nothing to start.
    public func start() {}

    /// Makes the next creation fail `unavailable` without being made: plays a store lost
    /// just as a session was made.
    public var failsNextCreate = false

    public func create(_ session: StoredSession, completion: @escaping (Result<Void, SessionPersistenceError>) -> Void) {
        guard isAvailable else { return completion(.failure(.unavailable("switched off"))) }
        if failsNextCreate {
            failsNextCreate = false
            return completion(.failure(.unavailable("lost before it was made")))
        }
        guard sessions[session.token] == nil else { return completion(.failure(.fenced)) }
        writes += 1
        sessions[session.token] = session
        completion(.success(()))
    }

    public func append(token: String, epoch: Int64, seq: Int?, event: String?, state: String?,
                       completion: @escaping (Result<Void, SessionPersistenceError>) -> Void) {
        let result = fenced(token, epoch) { stored in
            if let state {
                stored.state = state
                stored.journal = []  // the state replaces the journal
            } else if let event {
                stored.journal.append(event)
            }
            if let seq { stored.lastSeq = seq }
        }
        if holdsReplies, case .success = result {
            heldReplies.append(completion)
        } else {
            completion(result)
        }
    }

    public func takeOver(token: String, scene: String?, completion: @escaping (Result<StoredSession?, SessionPersistenceError>) -> Void) {
        guard isAvailable else { return completion(.failure(.unavailable("switched off"))) }
        guard var stored = sessions[token] else { return completion(.success(nil)) }
        if let scene, stored.scene != scene { return completion(.failure(.otherScene(stored.scene))) }
        writes += 1
        stored.epoch += 1
        sessions[token] = stored
        completion(.success(stored))
    }

    public func refresh(token: String, epoch: Int64, completion: @escaping (Result<Void, SessionPersistenceError>) -> Void) {
        completion(fenced(token, epoch) { _ in })
    }

    public func release(token: String, epoch: Int64, completion: @escaping (Result<Void, SessionPersistenceError>) -> Void) {
        completion(fenced(token, epoch) { $0.owner = "" })
    }

    public func delete(token: String, epoch: Int64, completion: @escaping (Result<Void, SessionPersistenceError>) -> Void) {
        guard isAvailable else { return completion(.failure(.unavailable("switched off"))) }
        if sessions[token]?.epoch == epoch {
            writes += 1
            sessions[token] = nil
        }
        completion(.success(()))
    }

    public func stop(completion: @escaping () -> Void) {
        completion()
    }

    private func fenced(_ token: String, _ epoch: Int64, _ change: (inout StoredSession) -> Void)
        -> Result<Void, SessionPersistenceError> {
        guard isAvailable else { return .failure(.unavailable("switched off")) }
        guard var stored = sessions[token], stored.epoch == epoch else { return .failure(.fenced) }
        writes += 1
        change(&stored)
        sessions[token] = stored
        return .success(())
    }
}
