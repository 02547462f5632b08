import EventLoop

/// One answered request, as an access log line or a metric sees it
/// (``HTTPServer/onAccess``).
public struct HTTPAccessRecord: Sendable {
    /// The method; `-` when the request could not be parsed.
    public var method: String
    /// The path, still percent-encoded, without the query; `-` when not parsed.
    public var path: String
    /// The route pattern that matched (`/api/sessions/:id`); nil for the router's
    /// fallback, a 404 or a request that could not be parsed.
    public var route: String?
    /// The status sent; 499 when the client went away before any answer (nginx's
    /// convention).
    public var status: Int
    /// Body bytes sent (streamed bodies: what was written).
    public var bytes: Int
    /// From the complete request to its last byte queued (for a stream, its end; for an
    /// upgrade, the `101`).
    public var duration: Duration
    /// The client (the TCP peer).
    public var remoteAddress: SocketAddress?
}
