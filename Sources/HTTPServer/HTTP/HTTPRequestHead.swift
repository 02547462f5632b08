/// A parsed request line and header section, with the framing decisions the parser made.
///
/// Produced by ``HTTPRequestParser``; the server turns it into an ``HTTPRequest``.
public struct HTTPRequestHead: Sendable, Equatable {
    /// The method token, case-sensitive as sent (`GET`).
    public var method: String
    /// The raw request-target as sent (`/a%20b?x=1`).
    public var target: String
    /// The target's path, still percent-encoded (`/a%20b`). For the absolute form
    /// (`http://host/p`) the path part; `*` for `OPTIONS *`.
    public var path: String
    /// The target's query without `?`, still percent-encoded; nil when there is no `?`.
    public var query: String?
    /// The request's HTTP version (1.0 or 1.1).
    public var version: HTTPVersion
    /// The header fields in order.
    public var headers: HTTPHeaders
    /// Whether the connection may carry another request after this one: HTTP/1.1
    /// unless `Connection: close`; HTTP/1.0 only with `Connection: keep-alive`.
    public var keepAlive: Bool
    /// `Expect: 100-continue` on an HTTP/1.1 request with a body.
    public var expectsContinue: Bool
    /// How the body is delimited.
    public var framing: BodyFraming

    /// How a request body is delimited.
    public enum BodyFraming: Sendable, Equatable {
        /// No body (no `Content-Length`, no `Transfer-Encoding`, or `Content-Length: 0`).
        case none
        /// Exactly this many bytes (`Content-Length`).
        case length(Int)
        /// `Transfer-Encoding: chunked`.
        case chunked
    }
}
