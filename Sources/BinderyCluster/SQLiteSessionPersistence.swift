import BinderyProtocol
import BinderyRuntime
import Dispatch
import EventLoop
import Foundation

/// A ``SessionPersistence`` in an SQLite file (`--store sqlite:PATH`): durable sessions
/// for one process, no server to run. The same rules as ``RedisSessionPersistence``
/// (fenced epochs, compaction, TTLs, ended sessions leave no rows), the same answers.
///
/// Threading: the calls are loop-confined and queue their operation; at the end of the
/// loop turn (an ``EndOfTurnHook``) the turn's operations go to one serial worker queue
/// as one batch, which runs them in one transaction (one fsync) and hands the replies
/// back with ``EventLoop/execute(_:)``, where the completions run in call order. One
/// batch is written at a time; what comes meanwhile goes as the next one, whole. No
/// SQLite call is made on the loop thread.
///
/// Trouble (disk full, the file locked by another process beyond the busy timeout, a
/// corrupt file, one that cannot be opened) rolls the batch back and fails each of its
/// operations ``SessionPersistenceError/unavailable(_:)``: the store answers
/// `store-unavailable` and never acks what was not written. ``isAvailable`` turns false
/// with one log line; a probe write each second turns it true again (another line) once
/// writes work.
///
/// Loop-confined, except the worker state (`database`, in ``Worker``), which only the
/// worker queue touches. ``stop(completion:)`` closes the file and the loop handles (the
/// tick timer and the end-of-turn hook keep themselves alive until then).
public final class SQLiteSessionPersistence: SessionPersistence {
    /// The file.
    public let path: String
    /// The loop completions run on.
    public let loop: EventLoop
    /// See ``SessionPersistence/timeToLive``.
    public let timeToLive: Duration
    /// See ``SessionPersistence/onAvailabilityChange``.
    public var onAvailabilityChange: ((Bool) -> Void)?
    /// Called with a line worth logging (store trouble, back).
    public var logger: ((String) -> Void)?
    /// `processID:incarnation`, recorded as sessions' owner.
    public let owner: String
    /// See ``SessionPersistence/isAvailable``: false until the file is open and after a
    /// failed batch, until a write works again.
    public private(set) var isAvailable = false

    /// One queued operation: its work on the worker, its completion on the loop.
    private typealias Work = @Sendable (SQLiteSessionTables) throws(SQLiteError) -> SQLiteSessionTables.Reply
    private typealias Completion = (Result<SQLiteSessionTables.Reply, SessionPersistenceError>) -> Void

    /// Batches sent to the worker so far (one transaction each). Loop-confined.
    package private(set) var batches = 0

    // Loop-confined.
    private var pending: [(work: Work, completion: Completion)] = []
    /// The batch being written (at most one: see ``flush()``).
    private var inFlight: [[Completion]] = []
    private var closeWhenDrained: (() -> Void)?
    private var flushHook: EndOfTurnHook?
    private var ticker: LoopTimer?
    private var ticks = 0
    private var started = false
    private var stopped = false
    private var lastTrouble: String?
    private let worker: Worker
    let metrics = StoreMetrics()

    /// A store in the file at `path` (created with its tables if missing) whose sessions
    /// outlive their owner by `timeToLive`; `busyTimeout` is how long a write waits for
    /// another connection's lock before it counts as trouble. Nothing is opened before
    /// ``start()``.
    public convenience init(path: String, loop: EventLoop, timeToLive: Duration, busyTimeout: Duration = .seconds(2),
                            processID: String? = nil) {
        self.init(path: path, loop: loop, timeToLive: timeToLive, busyTimeout: busyTimeout, processID: processID, openingSQL: "")
    }

    /// The same, running `openingSQL` on each new connection after the set-up (tests:
    /// `PRAGMA max_page_count` plays a full disk).
    package init(path: String, loop: EventLoop, timeToLive: Duration, busyTimeout: Duration, processID: String?,
                 openingSQL: String) {
        self.path = path
        self.loop = loop
        self.timeToLive = timeToLive
        let process = processID ?? "\(ProcessInfo.processInfo.hostName)-\(ProcessInfo.processInfo.processIdentifier)"
        owner = "\(process):\(Int64(Date().timeIntervalSince1970 * 1000))"
        worker = Worker(path: path, busyTimeout: Int32(clamping: RedisSessionPersistence.milliseconds(busyTimeout)),
                        openingSQL: openingSQL)
    }

    /// Opens the file (on the worker) and starts the once-a-second tick: a probe while
    /// unavailable, a sweep of expired sessions every ten ticks. Idempotent.
    public func start() {
        guard !started else { return }
        started = true
        flushHook = EndOfTurnHook(loop: loop) { [weak self] in self?.flush() }
        enqueue({ tables throws(SQLiteError) in try tables.probe(now: Self.now()); return .done }) { _ in }
        ticker = loop.scheduleTimer(after: .seconds(1), repeating: .seconds(1)) { [weak self] in self?.tick() }
    }

    private func tick() {
        ticks += 1
        if !isAvailable {
            enqueue({ tables throws(SQLiteError) in try tables.probe(now: Self.now()); return .done }) { _ in }
        } else if ticks % 10 == 0 {
            enqueue({ tables throws(SQLiteError) in try tables.sweep(now: Self.now()); return .done }) { _ in }
        }
    }

    // MARK: - Operations

    public func create(_ session: StoredSession, completion: @escaping (Result<Void, SessionPersistenceError>) -> Void) {
        let owner = self.owner, expires = expiry(), params = RedisSessionPersistence.encode(session.parameters)
        enqueue({ tables throws(SQLiteError) in try tables.create(session, owner: owner, params: params, expires: expires) },
                Self.void(completion))
    }

    public func append(token: String, epoch: Int64, seq: Int?, event: String?, state: String?,
                       completion: @escaping (Result<Void, SessionPersistenceError>) -> Void) {
        let expires = expiry(), start = DispatchTime.now().uptimeNanoseconds, metrics = self.metrics
        enqueue({ tables throws(SQLiteError) in
            try tables.append(token: token, epoch: epoch, seq: seq, event: event, state: state, expires: expires)
        }) { result in
            metrics.writes.increment()
            metrics.writeLatency.recordNanoseconds(Int64(DispatchTime.now().uptimeNanoseconds &- start))
            Self.void(completion)(result)
        }
    }

    public func takeOver(token: String, scene: String?, completion: @escaping (Result<StoredSession?, SessionPersistenceError>) -> Void) {
        let owner = self.owner, expires = expiry(), metrics = self.metrics
        enqueue({ tables throws(SQLiteError) in
            try tables.takeOver(token: token, scene: scene, owner: owner, expires: expires)
        }) { result in
            switch result {
            case .success(.session(let session)):
                if session != nil { metrics.takeovers.increment() }
                completion(.success(session))
            case .success(.otherScene(let scene)): completion(.failure(.otherScene(scene)))
            case .success(.fenced): completion(.failure(.fenced))
            case .success(.done): completion(.success(nil))
            case .failure(let error): completion(.failure(error))
            }
        }
    }

    public func refresh(token: String, epoch: Int64, completion: @escaping (Result<Void, SessionPersistenceError>) -> Void) {
        let expires = expiry()
        enqueue({ tables throws(SQLiteError) in try tables.refresh(token: token, epoch: epoch, release: false, expires: expires) },
                Self.void(completion))
    }

    public func release(token: String, epoch: Int64, completion: @escaping (Result<Void, SessionPersistenceError>) -> Void) {
        let expires = expiry()
        enqueue({ tables throws(SQLiteError) in try tables.refresh(token: token, epoch: epoch, release: true, expires: expires) },
                Self.void(completion))
    }

    public func delete(token: String, epoch: Int64, completion: @escaping (Result<Void, SessionPersistenceError>) -> Void) {
        enqueue({ tables throws(SQLiteError) in try tables.delete(token: token, epoch: epoch) }, Self.void(completion))
    }

    /// Answers the writes made before, then closes the file (on the worker).
    public func stop(completion: @escaping () -> Void) {
        guard started, !stopped else { return completion() }
        stopped = true
        ticker?.close()
        ticker = nil
        flushHook?.close()
        flushHook = nil
        closeWhenDrained = completion
        flush()
        closeIfDrained()
    }

    /// Closes the file once every write made before ``stop(completion:)`` is answered.
    private func closeIfDrained() {
        guard let completion = closeWhenDrained, inFlight.isEmpty, pending.isEmpty else { return }
        closeWhenDrained = nil
        let box = LoopOnly(completion)
        worker.close { [loop] in loop.execute { box.value() } }
    }

    // MARK: - Batching

    private func enqueue(_ work: @escaping Work, _ completion: @escaping Completion) {
        guard started, !stopped else { return completion(.failure(.unavailable("the SQLite store is not running"))) }
        pending.append((work, completion))
        flushHook?.schedule()
    }

    /// Sends the operations queued so far to the worker as one batch, unless one is still
    /// being written: then they wait and go together when it is answered (group commit).
    /// Each batch costs an fsync, so under load the batches grow instead of the queue.
    private func flush() {
        guard !pending.isEmpty, inFlight.isEmpty else { return }
        let batch = pending
        pending = []
        batches += 1
        inFlight.append(batch.map(\.completion))
        let works = batch.map(\.work)
        let box = LoopOnly(self)
        worker.run(works) { [loop] outcome in
            loop.execute { box.value.answer(outcome) }
        }
    }

    /// Runs the oldest batch's completions (the worker answers batches in order).
    private func answer(_ outcome: Result<[SQLiteSessionTables.Reply], SQLiteError>) {
        guard !inFlight.isEmpty else { return }
        let completions = inFlight.removeFirst()
        switch outcome {
        case .success(let replies):
            setAvailable(true, reason: nil)
            for (completion, reply) in zip(completions, replies) {
                if case .fenced = reply { metrics.fenced.increment() }
                completion(.success(reply))
            }
        case .failure(let error):
            metrics.errors.increment()
            setAvailable(false, reason: error.description)
            for completion in completions { completion(.failure(.unavailable(error.description))) }
        }
        flush()
        closeIfDrained()
    }

    private func setAvailable(_ available: Bool, reason: String?) {
        // One line per trouble: a new reason while unavailable is logged, a repeat is not.
        if let reason, reason != lastTrouble { logger?("session store unavailable (sqlite:\(path)): \(reason)") }
        lastTrouble = reason
        guard available != isAvailable else { return }
        isAvailable = available
        if available { logger?("session store ready (sqlite:\(path))") }
        onAvailabilityChange?(available)
    }

    private func expiry() -> Int64 { Self.now() + RedisSessionPersistence.milliseconds(timeToLive) }

    private static func now() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    private static func void(_ completion: @escaping (Result<Void, SessionPersistenceError>) -> Void) -> Completion {
        { result in
            switch result {
            case .success(.fenced): completion(.failure(.fenced))
            case .success(.otherScene(let scene)): completion(.failure(.otherScene(scene)))
            case .success: completion(.success(()))
            case .failure(let error): completion(.failure(error))
            }
        }
    }
}

/// A loop-confined value carried through the worker and back to the loop, never touched
/// on the way (so not Sendable in itself).
private struct LoopOnly<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

extension SQLiteSessionPersistence {
    /// The worker: a serial queue owning the connection. Each batch runs in one
    /// `BEGIN IMMEDIATE ... COMMIT`; any SQLite error rolls it back whole (none of its
    /// writes happened) and closes the connection, so the next batch opens the file
    /// afresh (a file replaced, a lock gone, a disk with room again).
    ///
    /// Worker-confined: `database` is touched only on `queue`.
    final class Worker: @unchecked Sendable {
        private let queue = DispatchQueue(label: "bindery.sqlite-store")
        private let path: String
        private let busyTimeout: Int32
        private let openingSQL: String
        private var database: SQLiteDatabase?

        init(path: String, busyTimeout: Int32, openingSQL: String) {
            self.path = path
            self.busyTimeout = busyTimeout
            self.openingSQL = openingSQL
        }

        typealias Work = @Sendable (SQLiteSessionTables) throws(SQLiteError) -> SQLiteSessionTables.Reply

        /// Runs `works` in one transaction; `done` on the worker with every reply or the error.
        func run(_ works: [Work], done: @escaping @Sendable (Result<[SQLiteSessionTables.Reply], SQLiteError>) -> Void) {
            queue.async { [self] in
                do throws(SQLiteError) {
                    done(.success(try transaction(works)))
                } catch {
                    database?.close()
                    database = nil
                    done(.failure(error))
                }
            }
        }

        /// Closes the connection after the batches queued before; `done` on the worker.
        func close(done: @escaping @Sendable () -> Void) {
            queue.async { [self] in
                database?.close()
                database = nil
                done()
            }
        }

        private func transaction(_ works: [Work]) throws(SQLiteError) -> [SQLiteSessionTables.Reply] {
            let database = try opened()
            let tables = SQLiteSessionTables(database: database)
            try database.execute("BEGIN IMMEDIATE")
            do throws(SQLiteError) {
                // Expired sessions go first, so no operation below can see one.
                try tables.sweep(now: Int64(Date().timeIntervalSince1970 * 1000))
                var replies: [SQLiteSessionTables.Reply] = []
                replies.reserveCapacity(works.count)
                for work in works { replies.append(try work(tables)) }
                try database.execute("COMMIT")
                return replies
            } catch {
                try? database.execute("ROLLBACK")
                throw error
            }
        }

        private func opened() throws(SQLiteError) -> SQLiteDatabase {
            if let database { return database }
            let database = try SQLiteDatabase(path: path, busyTimeout: busyTimeout)
            try database.execute(SQLiteSessionTables.setUp + openingSQL)
            self.database = database
            return database
        }
    }
}
