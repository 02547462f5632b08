/// Why a request was refused while parsing, with the HTTP status to answer it with.
///
/// After any of these the parser is finished: the server answers with ``status`` and
/// closes the connection, because where the next request would start is unknown.
public struct HTTPParserError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The class of failure; each maps to one status code.
    public enum Kind: Hashable, Sendable {
        /// Malformed syntax, ambiguous framing or forbidden characters (400).
        case badRequest
        /// The request line is longer than the limit (414 URI Too Long).
        case requestLineTooLong
        /// The header (or trailer) section is too large or has too many fields (431).
        case headerFieldsTooLarge
        /// The body is larger than the limit (413 Content Too Large).
        case bodyTooLarge
        /// The method is not one the server implements (501).
        case notImplemented
        /// HTTP/2 preface or an HTTP version other than 1.0/1.1 (505).
        case versionNotSupported
        /// An `Expect` value other than `100-continue` (417).
        case expectationFailed
        /// A transfer coding other than `chunked` (501).
        case unsupportedTransferCoding
    }

    /// The class of failure.
    public let kind: Kind
    /// What exactly was wrong, for logs and the response body.
    public let message: String

    /// An error of `kind` with a human-readable `message`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The status code to answer with.
    public var status: Int {
        switch kind {
        case .badRequest: return 400
        case .requestLineTooLong: return 414
        case .headerFieldsTooLarge: return 431
        case .bodyTooLarge: return 413
        case .notImplemented, .unsupportedTransferCoding: return 501
        case .versionNotSupported: return 505
        case .expectationFailed: return 417
        }
    }

    /// `"400 bad request: <message>"`.
    public var description: String { "\(status) \(kind): \(message)" }
}
