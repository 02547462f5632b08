/// Limits and timers of a WebSocket endpoint. The defaults suit a browser front end;
/// `wsecho` raises the size limits for the conformance suite.
public struct WebSocketConfiguration: Sendable {
    /// The largest frame payload accepted (1 MiB). A larger one closes with 1009.
    public var maxFrameSize: Int
    /// The largest message accepted, all fragments together (1 MiB). Larger: 1009.
    public var maxMessageSize: Int
    /// Send a ping after this long without receiving anything (30 s); nil: never.
    public var pingInterval: Duration?
    /// Close (1001, "idle timeout") after this long without receiving anything, pongs
    /// included (60 s); nil: never. Checked every `pingInterval` (or every `idleTimeout`
    /// without pings), so it fires up to one interval late.
    public var idleTimeout: Duration?
    /// How long to wait for the peer's close frame after sending ours, and for the peer
    /// to close TCP after the close handshake, before dropping the connection (5 s).
    public var closeTimeout: Duration
    /// Outgoing bytes (queued in the kernel-bound write queue plus not yet written) above
    /// which the connection is *backpressured*: it stops reading from the client and calls
    /// `onBackpressure` (256 KiB). Below half of it, reading resumes and `onWritable` runs.
    public var outgoingHighWater: Int
    /// Outgoing bytes above which a further send fails the connection with 1008 (policy
    /// violation) instead of buffering more (4 MiB). One message may overshoot it: the
    /// check is made before appending.
    public var outgoingLimit: Int
    /// Which browser origins may connect (the handshake answers others with 403).
    public var originPolicy: WebSocketOriginPolicy

    /// A configuration; every parameter has the default described on its property.
    public init(maxFrameSize: Int = 1 << 20,
                maxMessageSize: Int = 1 << 20,
                pingInterval: Duration? = .seconds(30),
                idleTimeout: Duration? = .seconds(60),
                closeTimeout: Duration = .seconds(5),
                outgoingHighWater: Int = 256 << 10,
                outgoingLimit: Int = 4 << 20,
                originPolicy: WebSocketOriginPolicy = .sameHost) {
        self.maxFrameSize = maxFrameSize
        self.maxMessageSize = maxMessageSize
        self.pingInterval = pingInterval
        self.idleTimeout = idleTimeout
        self.closeTimeout = closeTimeout
        self.outgoingHighWater = outgoingHighWater
        self.outgoingLimit = outgoingLimit
        self.originPolicy = originPolicy
    }
}
