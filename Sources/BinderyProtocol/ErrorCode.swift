/// The stable error codes of the wire protocol (the `code` of an `error` message).
/// Clients may switch on them; the readable `message` beside them may change.
public enum ErrorCode: String, Sendable, CaseIterable, Error {
    /// The text is not JSON (RFC 8259), or not UTF-8.
    case badJSON = "bad-json"
    /// JSON, but not a message: not an object, `type` missing, a field of the wrong type.
    case badMessage = "bad-message"
    /// An object whose `type` this server does not know.
    case unknownType = "unknown-type"
    /// An event for a widget id the scene does not have.
    case unknownTarget = "unknown-target"
    /// An event name that is not a `Control.Event` name, or one the widget does not send.
    case unknownEvent = "unknown-event"
    /// A `value` of the wrong type or out of range (a segment index outside `-1..<count`).
    case badValue = "bad-value"
    /// An event for a disabled control (UIKit ignores touches on one), or a row action
    /// the table does not allow now (selection off, a row that cannot be edited or moved).
    case disabled = "disabled"
    /// A row event naming a row (or section) key the table does not have.
    case unknownRow = "unknown-row"
    /// An alert event naming an action the alert does not have (or no alert is shown).
    case unknownAction = "unknown-action"
    /// An index outside its range (a moved row's destination).
    case indexOutOfRange = "index-out-of-range"
    /// An upload over the size cap (declared size or bytes so far): refused before the rest is read.
    case uploadTooLarge = "upload-too-large"
    /// An upload that is not in progress (cancelled, its connection dropped, never begun).
    case uploadAborted = "upload-aborted"
    /// An upload chunk at the wrong offset, an upload begun twice, or ended early.
    case uploadOutOfOrder = "upload-out-of-order"
    /// Too many events too fast; this one was dropped.
    case rateLimited = "rate-limited"
    /// A binary WebSocket frame (the protocol is text only). The connection stays open.
    case binaryNotSupported = "binary-not-supported"
    /// A binding threw (an error reached a `Binder` or `bind(onNext:)`) while handling
    /// this client's event. The session goes on.
    case bindingFailed = "binding-failed"
    /// A scene's parameters are missing or wrong (`/scene/repo?id=abc`): the scene's
    /// factory threw a `SceneParameterError`, and no session was made.
    case badParameter = "bad-parameter"
    /// The session store (`--store`) is unreachable, or the session moved to another
    /// server: the event was not acknowledged. Send it again (after the next `scene`).
    case storeUnavailable = "store-unavailable"
}

/// A protocol error: a stable ``ErrorCode`` and a readable message.
public struct ProtocolError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The stable code.
    public let code: ErrorCode
    /// A readable explanation.
    public let message: String
    /// The widget the failed event named, when known.
    public let target: String?

    /// An error with `code`, `message` and, optionally, the event's `target`.
    public init(_ code: ErrorCode, _ message: String, target: String? = nil) {
        self.code = code
        self.message = message
        self.target = target
    }

    /// `code: message`.
    public var description: String { "\(code.rawValue): \(message)" }
}
