extension RedisConnection {
    /// Timeouts, reconnection and parser limits of a ``RedisConnection``.
    public struct Configuration: Sendable {
        /// How long a command may wait for its reply by default (nil: forever).
        public var commandTimeout: Duration?
        /// What a timeout does besides failing the command.
        public var timeoutPolicy: TimeoutPolicy
        /// How long one connection attempt may take.
        public var connectTimeout: Duration
        /// The first delay before reconnecting; it doubles per failed attempt.
        public var reconnectInitialDelay: Duration
        /// The longest delay between attempts.
        public var reconnectMaximumDelay: Duration
        /// Bounds on the replies parsed.
        public var parserLimits: RESPParser.Limits

        /// Creates a configuration; the defaults suit a store on the same host or network.
        public init(commandTimeout: Duration? = .seconds(5), timeoutPolicy: TimeoutPolicy = .resetConnection,
                    connectTimeout: Duration = .seconds(2),
                    reconnectInitialDelay: Duration = .milliseconds(50),
                    reconnectMaximumDelay: Duration = .seconds(5),
                    parserLimits: RESPParser.Limits = RESPParser.Limits()) {
            self.commandTimeout = commandTimeout
            self.timeoutPolicy = timeoutPolicy
            self.connectTimeout = connectTimeout
            self.reconnectInitialDelay = reconnectInitialDelay
            self.reconnectMaximumDelay = reconnectMaximumDelay
            self.parserLimits = parserLimits
        }
    }

    /// What happens to the connection when a command times out. Replies come in order,
    /// so the late reply still has to be read before those behind it.
    public enum TimeoutPolicy: Hashable, Sendable {
        /// Drop the connection (every pending command fails) and reconnect: a reply that
        /// is late usually means a dead or stalled peer, which TCP alone notices late.
        case resetConnection
        /// Keep the connection; the late reply is read and discarded when it comes, and
        /// the commands behind it wait for it (their own timeouts still apply).
        case discardReply
    }

    /// The connection's state, as reported to ``RedisConnection/onStateChange``.
    public enum State: Hashable, Sendable, CustomStringConvertible {
        /// Created; ``RedisConnection/connect()`` not called yet.
        case idle
        /// Connecting; commands sent now are queued and go out once connected.
        case connecting(attempt: Int)
        /// Connected; commands go out at the end of the loop turn.
        case connected
        /// The last attempt failed or the connection was lost; the next attempt starts
        /// after `delay`. Commands fail at once with ``RedisError/notConnected``.
        case waitingToReconnect(attempt: Int, delay: Duration, reason: String)
        /// Closed for good by ``RedisConnection/close()``.
        case closed

        /// A short English description.
        public var description: String {
            switch self {
            case .idle: return "idle"
            case .connecting(let attempt): return "connecting (attempt \(attempt))"
            case .connected: return "connected"
            case .waitingToReconnect(let attempt, let delay, let reason):
                return "reconnecting in \(delay) after \(attempt) failed attempt(s): \(reason)"
            case .closed: return "closed"
            }
        }
    }

    /// Counters for a store's metrics; they only grow.
    public struct Statistics: Hashable, Sendable {
        /// Commands accepted by `send` (those failed at once are not counted).
        public var commandsSent = 0
        /// Replies read (error replies included).
        public var repliesReceived = 0
        /// Error replies read.
        public var errorReplies = 0
        /// Commands failed by their timeout.
        public var timeouts = 0
        /// Connections established.
        public var connects = 0
        /// Connections lost or failed attempts.
        public var connectionFailures = 0
        /// Writes made (each carries every command issued in a loop turn).
        public var writes = 0
    }
}
