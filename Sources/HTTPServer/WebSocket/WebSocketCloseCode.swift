/// A WebSocket close status code (RFC 6455 §7.4).
///
/// A struct rather than an enum: applications and libraries use the whole 3000–4999 range.
public struct WebSocketCloseCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The code as sent on the wire.
    public let rawValue: UInt16

    /// A code with the given value.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// A code with the given value.
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }

    /// 1000: the purpose of the connection is fulfilled.
    public static let normalClosure = WebSocketCloseCode(1000)
    /// 1001: the endpoint is going away (server shutdown, page navigated away).
    public static let goingAway = WebSocketCloseCode(1001)
    /// 1002: the peer broke the protocol.
    public static let protocolError = WebSocketCloseCode(1002)
    /// 1003: a kind of data the endpoint cannot accept.
    public static let unsupportedData = WebSocketCloseCode(1003)
    /// 1005: a close frame without a code arrived. Never sent on the wire.
    public static let noStatusReceived = WebSocketCloseCode(1005)
    /// 1006: the connection dropped without a close frame. Never sent on the wire.
    public static let abnormalClosure = WebSocketCloseCode(1006)
    /// 1007: a text message (or a close reason) was not valid UTF-8.
    public static let invalidFramePayloadData = WebSocketCloseCode(1007)
    /// 1008: a policy was violated (here: the outgoing buffer limit).
    public static let policyViolation = WebSocketCloseCode(1008)
    /// 1009: a message or frame was larger than the endpoint accepts.
    public static let messageTooBig = WebSocketCloseCode(1009)
    /// 1010: the client needed an extension the server did not offer.
    public static let mandatoryExtension = WebSocketCloseCode(1010)
    /// 1011: the server met an unexpected condition.
    public static let internalError = WebSocketCloseCode(1011)
    /// 1012: the service is restarting.
    public static let serviceRestart = WebSocketCloseCode(1012)
    /// 1013: try again later (temporary overload).
    public static let tryAgainLater = WebSocketCloseCode(1013)
    /// 1014: a gateway got a bad answer upstream.
    public static let badGateway = WebSocketCloseCode(1014)

    /// `true` when the code may appear in a close frame: 1000–1003, 1007–1014 (the IANA
    /// registered ones) and 3000–4999 (libraries, frameworks, applications). 1004–1006,
    /// 1015, the rest of 1000–2999 and everything below 1000 or above 4999 are a
    /// protocol error when received.
    public var isValidOnWire: Bool {
        switch rawValue {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }

    /// The number, and the RFC's name when there is one.
    public var description: String {
        let name: String? = switch rawValue {
        case 1000: "normal closure"
        case 1001: "going away"
        case 1002: "protocol error"
        case 1003: "unsupported data"
        case 1005: "no status received"
        case 1006: "abnormal closure"
        case 1007: "invalid frame payload data"
        case 1008: "policy violation"
        case 1009: "message too big"
        case 1010: "mandatory extension"
        case 1011: "internal error"
        case 1012: "service restart"
        case 1013: "try again later"
        case 1014: "bad gateway"
        default: nil
        }
        return name.map { "\(rawValue) (\($0))" } ?? "\(rawValue)"
    }
}
