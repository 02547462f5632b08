/// Why the WebSocket layer failed a connection, and the close code it sends for it.
public enum WebSocketError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A client frame without the mask bit (RFC 6455 §5.1).
    case unmaskedFrame
    /// RSV1–3 set while no extension was negotiated.
    case reservedBitsSet(UInt8)
    /// An opcode the RFC reserves (3–7, 0xB–0xF).
    case reservedOpcode(UInt8)
    /// A close, ping or pong frame without FIN.
    case fragmentedControlFrame
    /// A close, ping or pong frame with more than 125 payload bytes.
    case controlFrameTooLong
    /// A 16- or 64-bit length that fits in fewer bytes (the RFC requires the minimal encoding).
    case nonMinimalLength(UInt64)
    /// A 64-bit length with the most significant bit set.
    case invalidLength
    /// A frame longer than the configured maximum.
    case frameTooBig(length: UInt64, limit: Int)
    /// A message longer than the configured maximum.
    case messageTooBig(limit: Int)
    /// A continuation frame with no fragmented message in progress.
    case unexpectedContinuation
    /// A text or binary frame while a fragmented message is still in progress.
    case expectedContinuation(WebSocketOpcode)
    /// A text message that is not valid UTF-8.
    case invalidUTF8
    /// A close frame with a one-byte payload (a code needs two).
    case truncatedCloseCode
    /// A close frame with a code that must not appear on the wire.
    case invalidCloseCode(UInt16)
    /// A close frame whose reason is not valid UTF-8.
    case invalidCloseReason

    /// The status code to close with.
    public var closeCode: WebSocketCloseCode {
        switch self {
        case .invalidUTF8, .invalidCloseReason: .invalidFramePayloadData
        case .frameTooBig, .messageTooBig: .messageTooBig
        default: .protocolError
        }
    }

    /// A short explanation, also used as the close reason (kept under 123 bytes).
    public var description: String {
        switch self {
        case .unmaskedFrame: "client frame not masked"
        case .reservedBitsSet(let bits): "reserved bits set (0x\(String(bits, radix: 16))) without an extension"
        case .reservedOpcode(let opcode): "reserved opcode 0x\(String(opcode, radix: 16))"
        case .fragmentedControlFrame: "fragmented control frame"
        case .controlFrameTooLong: "control frame payload over 125 bytes"
        case .nonMinimalLength(let length): "payload length \(length) not in its minimal encoding"
        case .invalidLength: "64-bit payload length with the top bit set"
        case .frameTooBig(let length, let limit): "frame of \(length) bytes over the limit of \(limit)"
        case .messageTooBig(let limit): "message over the limit of \(limit) bytes"
        case .unexpectedContinuation: "continuation frame without a message in progress"
        case .expectedContinuation(let opcode): "\(opcode) frame while a fragmented message is in progress"
        case .invalidUTF8: "text message is not valid UTF-8"
        case .truncatedCloseCode: "close frame payload of 1 byte"
        case .invalidCloseCode(let code): "invalid close code \(code)"
        case .invalidCloseReason: "close reason is not valid UTF-8"
        }
    }
}
