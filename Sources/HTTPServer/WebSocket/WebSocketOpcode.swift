/// The opcode of a WebSocket frame (RFC 6455 §5.2).
public enum WebSocketOpcode: UInt8, Sendable, CustomStringConvertible {
    /// A further fragment of the message in progress.
    case continuation = 0x0
    /// The first frame of a UTF-8 text message.
    case text = 0x1
    /// The first frame of a binary message.
    case binary = 0x2
    /// Starts (or answers) the closing handshake.
    case close = 0x8
    /// A ping; answered with a pong carrying the same payload.
    case ping = 0x9
    /// A pong, in answer to a ping or unsolicited (a heartbeat).
    case pong = 0xA

    /// `true` for close, ping and pong: at most 125 payload bytes, never fragmented, and
    /// allowed between the fragments of a message.
    public var isControl: Bool { rawValue & 0x8 != 0 }

    /// The opcode's name, as in the RFC.
    public var description: String {
        switch self {
        case .continuation: "continuation"
        case .text: "text"
        case .binary: "binary"
        case .close: "close"
        case .ping: "ping"
        case .pong: "pong"
        }
    }
}
