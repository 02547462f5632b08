import EventLoop

/// Given to an upgrade route's handler on the loop thread: take the connection over
/// (WebSocket) or answer it as plain HTTP.
///
/// Loop-confined, like ``HTTPResponder``; the handler may decide later. Exactly one of
/// ``accept(response:take:)`` and ``reject(_:)`` should be called; later calls do
/// nothing. If the client goes away first, neither has any effect.
public final class HTTPUpgrade {
    /// The request asking for the upgrade (path parameters bound).
    public let request: HTTPRequest
    private let responder: HTTPResponder

    init(request: HTTPRequest, responder: HTTPResponder) {
        self.request = request
        self.responder = responder
    }

    /// The loop the connection runs on.
    public var loop: EventLoop { responder.loop }

    /// `true` once accepted or rejected, or the connection is gone.
    public var isClosed: Bool { responder.isClosed }

    /// Writes `response` (e.g. 101 Switching Protocols, headers verbatim — the server adds
    /// only `Date` and `Server`; no body is sent) and hands the socket over: the HTTP layer
    /// stops reading, stops its timers and forgets the connection (it no longer counts
    /// against `maxConnections` nor is it closed by ``HTTPServer/shutdown(timeout:completion:)``;
    /// register a shutdown hook for that). `take` runs at once with the connection and
    /// any bytes the client already sent after the request head; the new owner must call
    /// `startReading` (replacing the HTTP reader) and eventually `close`.
    public func accept(response: HTTPResponse, take: (TCPConnection, [UInt8]) -> Void) {
        precondition(!loop.isRunning || loop.isLoopThread, "HTTPUpgrade.accept is loop-confined")
        guard case .pending = responder.state, let connection = responder.connection else { return }
        connection.upgrade(response, for: responder, take: take)
    }

    /// Answers with a normal HTTP response (400, 403, 404, 426...) and goes on as HTTP.
    public func reject(_ response: HTTPResponse) {
        responder.respond(response)
    }
}
