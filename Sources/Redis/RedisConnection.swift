import EventLoop
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A Redis client connection on Bindery's own event loop (RESP2 over TCP or a Unix
/// socket).
///
/// **Loop-confined**: create it, call it and read its properties on the loop thread (or
/// before the loop runs); completions and ``onStateChange`` run there. Keep a reference
/// while you use it, and ``close()`` it when done.
///
/// **Pipelining**: every command sent during one loop turn goes out in one write at the
/// end of the turn; replies are matched to commands in order.
///
/// **Failures**: an error reply fails its command with ``RedisError/server(_:)``. When the
/// connection is lost, every pending command fails with ``RedisError/connectionLost(_:)``
/// and the connection reconnects by itself with exponential backoff and jitter (see
/// ``State``); commands sent while it waits fail at once with ``RedisError/notConnected``,
/// so callers learn of store trouble immediately. Completions for commands that fail
/// before being queued (closed, not connected) run before `send` returns.
public final class RedisConnection {
    /// A command's completion.
    public typealias Completion = (Result<RESPValue, RedisError>) -> Void

    /// Where the server is.
    public let endpoint: RedisEndpoint
    /// The loop the connection runs on.
    public let loop: EventLoop
    /// Timeouts, backoff and limits.
    public let configuration: Configuration

    /// The current state; changes are also reported to ``onStateChange``.
    public private(set) var state: State = .idle
    /// Called on the loop thread after every state change.
    public var onStateChange: ((State) -> Void)?
    /// Counters for metrics.
    public private(set) var statistics = Statistics()
    /// Commands sent and not yet answered (or failed).
    public var pendingCount: Int { pending.count - pendingHead }

    private struct Pending {
        /// nil once the command has failed by timeout (its late reply is discarded) or
        /// for internal commands whose reply is not wanted.
        var completion: Completion?
        /// Monotonic nanoseconds (see `now`); 0 for none.
        var deadline: UInt64 = 0
        var timeout: Duration?
    }

    private var connection: TCPConnection?
    /// Bumped whenever a connection (or attempt) ends, so its late callbacks are ignored.
    private var generation = 0
    private var parser: RESPParser
    private var pending: [Pending] = []
    private var pendingHead = 0
    /// Commands encoded this turn, written by `flush`.
    private var output: [UInt8] = []
    private var flushHook: EndOfTurnHook?
    private var watchdog: LoopTimer?
    private var watchdogDeadline: UInt64 = .max
    /// `configuration.commandTimeout` in nanoseconds, converted once (Duration arithmetic
    /// is 128-bit).
    private let defaultTimeoutNanoseconds: UInt64?
    private var attemptTimer: LoopTimer?
    /// Consecutive failed attempts.
    private var failures = 0
    private var scripts: [RedisScript] = []

    /// Creates a connection; nothing happens until ``connect()``. Loop-confined.
    public init(endpoint: RedisEndpoint, loop: EventLoop, configuration: Configuration = Configuration()) {
        self.endpoint = endpoint
        self.loop = loop
        self.configuration = configuration
        parser = RESPParser(limits: configuration.parserLimits)
        defaultTimeoutNanoseconds = configuration.commandTimeout.map(Self.nanoseconds)
    }

    /// Creates a connection to `redis://HOST:PORT` or `redis+unix:///path`. Loop-confined.
    public convenience init(url: String, loop: EventLoop, configuration: Configuration = Configuration()) throws(RedisEndpoint.ParseError) {
        self.init(endpoint: try RedisEndpoint(url: url), loop: loop, configuration: configuration)
    }

    /// Dropped without ``close()``: let go of the socket and timers (which keep themselves
    /// alive until closed); pending completions are not called.
    deinit {
        connection?.close()
        flushHook?.close()
        watchdog?.close()
        attemptTimer?.close()
    }

    @inline(__always)
    private func checkLoop() {
        precondition(!loop.isRunning || loop.isLoopThread, "RedisConnection is loop-confined: use it on the event loop thread")
    }

    // MARK: - Lifecycle

    /// Starts connecting (and reconnecting whenever the connection is lost, until
    /// ``close()``). Does nothing unless ``state`` is `.idle`. Loop-confined.
    public func connect() {
        checkLoop()
        guard case .idle = state else { return }
        startAttempt()
    }

    /// Closes the connection for good: pending commands fail with ``RedisError/closed``,
    /// timers are released, no reconnection. Calling it again does nothing. Loop-confined.
    public func close() {
        checkLoop()
        if case .closed = state { return }
        generation += 1
        connection?.close()
        connection = nil
        for timer in [watchdog, attemptTimer] { timer?.close() }
        flushHook?.close()
        flushHook = nil
        watchdog = nil
        attemptTimer = nil
        watchdogDeadline = .max
        output = []
        let failed = takePending()
        setState(.closed)
        for entry in failed { entry.completion?(.failure(.closed)) }
    }

    /// Registers `script` to be loaded (`SCRIPT LOAD`) first thing after every connect,
    /// before any queued command, so `EVALSHA` finds it even after a Redis restart and
    /// its NOSCRIPT fallback (which would reorder it) is only needed after a
    /// `SCRIPT FLUSH`. Loop-confined.
    public func register(_ script: RedisScript) {
        checkLoop()
        if !scripts.contains(script) { scripts.append(script) }
        if case .connected = state {
            enqueue(encoded: { RESPEncoder.encodeCommand(["SCRIPT", "LOAD", script.source], into: &$0) },
                    timeout: nil, completion: nil)
        }
    }

    private func startAttempt() {
        attemptTimer = nil
        generation += 1
        let generation = self.generation
        setState(.connecting(attempt: failures + 1))
        do {
            let onConnect: (UVError?) -> Void = { [weak self] error in self?.didConnect(generation, error) }
            switch endpoint {
            case .tcp(let host, let port):
                let address = try SocketAddress(host: host, port: port)
                connection = try TCPConnection.connect(to: address, on: loop, onConnect)
            case .unix(let path):
                connection = try TCPConnection.connect(unixSocketPath: path, on: loop, onConnect)
            }
        } catch {
            connectionEnded(generation, reason: "\(error)")
            return
        }
        attemptTimer = loop.scheduleTimer(after: configuration.connectTimeout) { [weak self] in
            self?.connectionEnded(generation, reason: "connect timed out after \(self?.configuration.connectTimeout ?? .zero)")
        }
    }

    private func didConnect(_ generation: Int, _ error: UVError?) {
        guard generation == self.generation, let connection else { return }
        if let error {
            connectionEnded(generation, reason: "\(error)")
            return
        }
        attemptTimer?.close()
        attemptTimer = nil
        if case .tcp = endpoint { try? connection.setNoDelay(true) }
        do {
            try connection.startReading { [weak self] event in self?.didRead(event, generation) }
        } catch {
            connectionEnded(generation, reason: "\(error)")
            return
        }
        failures = 0
        statistics.connects += 1
        if !scripts.isEmpty {
            // Ahead of the commands queued while connecting, in the same write.
            var prefix: [UInt8] = []
            for script in scripts { RESPEncoder.encodeCommand(["SCRIPT", "LOAD", script.source], into: &prefix) }
            output.insert(contentsOf: prefix, at: 0)
            pending.insert(contentsOf: scripts.map { _ in Pending(completion: nil) }, at: pendingHead)
            statistics.commandsSent += scripts.count
        }
        setState(.connected)
        guard generation == self.generation else { return }  // closed by the state handler
        scheduleFlush()
    }

    /// Ends the current connection or attempt: fails what is pending with `error`
    /// (after `first`, failed with their own errors) and schedules the next attempt.
    private func connectionEnded(_ generation: Int, reason: String, error: RedisError? = nil,
                                 first: [(Completion, RedisError)] = []) {
        guard generation == self.generation else { return }
        if case .closed = state { return }
        self.generation += 1
        connection?.close()
        connection = nil
        attemptTimer?.close()
        attemptTimer = nil
        watchdog?.stop()
        watchdogDeadline = .max
        output.removeAll(keepingCapacity: true)
        parser = RESPParser(limits: configuration.parserLimits)
        let failed = takePending()
        failures += 1
        statistics.connectionFailures += 1
        let delay = backoff(failures)
        attemptTimer = loop.scheduleTimer(after: delay) { [weak self] in self?.startAttempt() }
        setState(.waitingToReconnect(attempt: failures, delay: delay, reason: reason))
        for (completion, error) in first { completion(.failure(error)) }
        let error = error ?? .connectionLost(reason)
        for entry in failed { entry.completion?(.failure(error)) }
    }

    /// Exponential backoff with "equal jitter": a random delay in [d/2, d], where d
    /// doubles per failure up to the maximum, so processes that lost Redis together
    /// do not reconnect in lockstep.
    private func backoff(_ failures: Int) -> Duration {
        let initial = configuration.reconnectInitialDelay
        let maximum = configuration.reconnectMaximumDelay
        let doubled = initial * (1 << min(failures - 1, 30))
        let delay = doubled > maximum || doubled < initial ? maximum : doubled
        return delay / 2 + delay * Double.random(in: 0..<0.5)
    }

    private func takePending() -> ArraySlice<Pending> {
        let taken = pending[pendingHead...]
        pending = []
        pendingHead = 0
        return taken
    }

    private func setState(_ newState: State) {
        state = newState
        onStateChange?(newState)
    }

    // MARK: - Commands

    /// Sends a command (its arguments as strings, UTF-8). `completion` gets the reply
    /// (error replies as ``RedisError/server(_:)``) or the failure; `timeout` overrides
    /// the configured command timeout. Loop-confined.
    public func send(_ command: [String], timeout: Duration? = nil, completion: @escaping Completion) {
        guard admits(completion) else { return }
        enqueue(encoded: { RESPEncoder.encodeCommand(command, into: &$0) }, timeout: timeout, completion: completion)
    }

    /// Sends a command given as binary-safe byte arrays. As ``send(_:timeout:completion:)``.
    public func send(_ command: [[UInt8]], timeout: Duration? = nil, completion: @escaping Completion) {
        guard admits(completion) else { return }
        enqueue(encoded: { RESPEncoder.encodeCommand(command, into: &$0) }, timeout: timeout, completion: completion)
    }

    /// Fails `completion` at once unless commands can be queued now.
    private func admits(_ completion: Completion) -> Bool {
        checkLoop()
        switch state {
        case .connected, .connecting: return true
        case .idle, .waitingToReconnect: completion(.failure(.notConnected))
        case .closed: completion(.failure(.closed))
        }
        return false
    }

    /// Queues an encoded command; `timeout` nil means the configured one.
    private func enqueue(encoded encode: (inout [UInt8]) -> Void, timeout: Duration?, completion: Completion?) {
        encode(&output)
        var entry = Pending(completion: completion)
        if let nanoseconds = timeout.map(Self.nanoseconds) ?? defaultTimeoutNanoseconds {
            let deadline = Self.now() &+ max(nanoseconds, 1)
            entry.deadline = deadline
            entry.timeout = timeout ?? configuration.commandTimeout
            if deadline < watchdogDeadline { armWatchdog(deadline) }
        }
        pending.append(entry)
        statistics.commandsSent += 1
        if case .connected = state { scheduleFlush() }
    }

    private func scheduleFlush() {
        if let flushHook {
            flushHook.schedule()
            return
        }
        // Runs after this turn's callbacks, before the loop waits: one write for all.
        let hook = EndOfTurnHook(loop: loop) { [weak self] in self?.flush() }
        flushHook = hook
        hook.schedule()
    }

    private func flush() {
        guard case .connected = state, let connection, !output.isEmpty else { return }
        let buffer = WriteBuffer(output)
        output.removeAll(keepingCapacity: output.capacity <= 1 << 20)
        let generation = self.generation
        statistics.writes += 1
        do {
            try connection.write(buffer) { [weak self] error in
                if let error { self?.connectionEnded(generation, reason: "\(error)") }
            }
        } catch {
            connectionEnded(generation, reason: "\(error)")
        }
    }

    // MARK: - Replies

    private func didRead(_ event: TCPConnection.ReadEvent, _ generation: Int) {
        guard generation == self.generation else { return }
        switch event {
        case .bytes(let bytes):
            parser.append(bytes)
            while generation == self.generation {
                let value: RESPValue?
                do {
                    value = try parser.next()
                } catch {
                    connectionEnded(generation, reason: "\(error)", error: .protocolError(error))
                    return
                }
                guard let value else { return }
                deliver(value, generation)
            }
        case .eof:
            connectionEnded(generation, reason: "server closed the connection")
        case .error(let error):
            connectionEnded(generation, reason: "\(error)")
        }
    }

    private func deliver(_ value: RESPValue, _ generation: Int) {
        guard pendingHead < pending.count else {
            connectionEnded(generation, reason: "reply with no command pending")
            return
        }
        let completion = pending[pendingHead].completion
        pending[pendingHead].completion = nil
        pendingHead += 1
        if pendingHead == pending.count {
            pending.removeAll(keepingCapacity: pending.capacity <= 1 << 16)
            pendingHead = 0
        } else if pendingHead >= 4096 && pendingHead * 2 >= pending.count {
            pending.removeSubrange(0..<pendingHead)
            pendingHead = 0
        }
        statistics.repliesReceived += 1
        if case .error(let message) = value {
            statistics.errorReplies += 1
            completion?(.failure(.server(message)))
        } else {
            completion?(.success(value))
        }
    }

    // MARK: - Timeouts

    /// Monotonic time in nanoseconds (CLOCK_MONOTONIC, the clock libuv's timers use).
    private static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    private static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, attoseconds >= 0 else { return 0 }
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max / 2 : min(whole &+ UInt64(attoseconds / 1_000_000_000), .max / 2)
    }

    /// One timer for every pending command, armed for the earliest deadline.
    private func armWatchdog(_ deadline: UInt64) {
        watchdogDeadline = deadline
        let timer = watchdog ?? LoopTimer(loop: loop)
        watchdog = timer
        let now = Self.now()
        timer.start(after: .nanoseconds(deadline > now ? Int64(clamping: deadline - now) : 0)) { [weak self] in
            self?.watchdogFired()
        }
    }

    private func watchdogFired() {
        watchdogDeadline = .max
        let now = Self.now()
        var expired: [(Completion, RedisError)] = []
        var earliest = UInt64.max
        for index in pendingHead..<pending.count {
            let deadline = pending[index].deadline
            guard deadline != 0, pending[index].completion != nil else { continue }
            if deadline <= now {
                expired.append((pending[index].completion!, .timeout(pending[index].timeout ?? .zero)))
                pending[index].completion = nil
            } else {
                earliest = min(earliest, deadline)
            }
        }
        statistics.timeouts += expired.count
        if !expired.isEmpty, configuration.timeoutPolicy == .resetConnection {
            connectionEnded(generation, reason: "a command timed out; connection reset", first: expired)
            return
        }
        if earliest != .max { armWatchdog(earliest) }
        for (completion, error) in expired { completion(.failure(error)) }
    }
}
