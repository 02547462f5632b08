/// Why a command failed.
public enum RedisError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Redis answered with an error reply (`-ERR ...`, `-NOSCRIPT ...`); its text.
    case server(String)
    /// No reply within the command's timeout.
    case timeout(Duration)
    /// The connection was lost (or broken on purpose after a timeout or a protocol
    /// error) before the reply came; whether the command ran is unknown.
    case connectionLost(String)
    /// The command was not sent: the connection is not up (waiting to reconnect).
    case notConnected
    /// The connection was closed by ``RedisConnection/close()``.
    case closed
    /// The reply could not be parsed; the connection is reset.
    case protocolError(RESPParserError)

    /// A short English description.
    public var description: String {
        switch self {
        case .server(let message): return "Redis error: \(message)"
        case .timeout(let duration): return "Redis command timed out after \(duration)"
        case .connectionLost(let reason): return "Redis connection lost: \(reason)"
        case .notConnected: return "Redis is not connected"
        case .closed: return "Redis connection closed"
        case .protocolError(let error): return "Redis protocol error: \(error)"
        }
    }
}
