extension HTTPServer {
    /// Limits and timeouts. The defaults suit a server facing the internet directly.
    public struct Configuration: Sendable {
        /// Request size limits and accepted methods (414/431/413/501 beyond them).
        public var limits: HTTPRequestParser.Limits
        /// Time allowed for a whole request head to arrive, counted from its first byte
        /// (or from the connection's start); not reset by each byte, so a slowloris
        /// client that trickles bytes is cut off. Answered with 408, then closed.
        public var headerReadTimeout: Duration
        /// Time allowed for a request body to arrive once its head has (408, closed).
        public var bodyReadTimeout: Duration
        /// How long a keep-alive connection may sit idle between requests (closed
        /// silently).
        public var idleTimeout: Duration
        /// Most HTTP connections at once. At the limit, a new connection takes the slot of
        /// one the server is only waiting on, which is closed: first a stalled request head,
        /// then a connection idle between requests, then one that has sent nothing for
        /// 100 ms, the oldest first. When every connection is being answered, the new one gets
        /// `503 Service Unavailable` with `Retry-After` and is closed.
        /// Upgraded (WebSocket) connections no longer count: the layer that took them
        /// limits them.
        public var maxConnections: Int
        /// Bytes a connection may have queued for the kernel (the outgoing buffer). Above
        /// it the connection stops reading and parsing further (pipelined) requests until
        /// it drains below half; a streaming response (SSE) whose write would exceed it is
        /// dropped and the connection closed, because such a client has stopped reading.
        public var maxOutgoingBufferBytes: Int
        /// Bytes of further (pipelined) requests buffered while a response is pending;
        /// beyond it the connection stops reading until the response is done.
        public var maxBufferedInputBytes: Int
        /// How long queued response bytes may sit without the client taking any of them
        /// (checked each period: the queue must shrink). A client that stops reading a
        /// response, a streamed file or its last response before close is cut off after it.
        public var sendTimeout: Duration
        /// On a closing connection, once the last response is out and FIN sent: how long
        /// to keep reading and discarding what the client still sends (so the kernel does
        /// not answer it with a reset that could destroy the response), at most.
        public var lingerTimeout: Duration
        /// `Server` header value; nil sends none.
        public var serverName: String?
        /// The kernel's queue of connections not yet accepted.
        public var backlog: Int32

        /// The defaults: 10 s head, 30 s body, 60 s idle, 30 s send, 1024 connections,
        /// 1 MiB outgoing buffer, 64 KiB pipelined input, 2 s linger, the parser's default
        /// limits.
        public init(limits: HTTPRequestParser.Limits = .init(),
                    headerReadTimeout: Duration = .seconds(10),
                    bodyReadTimeout: Duration = .seconds(30),
                    idleTimeout: Duration = .seconds(60),
                    sendTimeout: Duration = .seconds(30),
                    maxConnections: Int = 1024,
                    maxOutgoingBufferBytes: Int = 1024 * 1024,
                    maxBufferedInputBytes: Int = 64 * 1024,
                    lingerTimeout: Duration = .seconds(2),
                    serverName: String? = "Bindery",
                    backlog: Int32 = 511) {
            self.limits = limits
            self.headerReadTimeout = headerReadTimeout
            self.bodyReadTimeout = bodyReadTimeout
            self.idleTimeout = idleTimeout
            self.sendTimeout = sendTimeout
            self.maxConnections = maxConnections
            self.maxOutgoingBufferBytes = maxOutgoingBufferBytes
            self.maxBufferedInputBytes = maxBufferedInputBytes
            self.lingerTimeout = lingerTimeout
            self.serverName = serverName
            self.backlog = backlog
        }
    }
}
