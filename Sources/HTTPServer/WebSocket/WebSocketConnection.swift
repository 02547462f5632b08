import EventLoop

/// One WebSocket connection (RFC 6455), server side, over a ``TCPConnection`` that has
/// completed the opening handshake.
///
/// **Loop-confined.** Create it, call its methods and set its callbacks on the loop
/// thread of its TCP connection; every callback runs there. Work from other threads comes
/// back with `EventLoop.execute` (or RxCore's `MainScheduler`).
///
/// **Lifetime.** The connection keeps itself alive while its socket is open (the socket's
/// read and write callbacks hold it), so dropping your reference does not close it. It
/// ends in ``onClose`` exactly once; the callbacks are released after it, so closures
/// that capture the connection do not leak.
///
/// **What it does for you.** Reassembles fragmented messages (control frames may come
/// between fragments), validates UTF-8 (1007), enforces the size limits (1009) and every
/// protocol rule (1002) through ``MessageAssembler``; answers pings; pings an idle peer
/// and drops one that stays silent (``WebSocketConfiguration/pingInterval``,
/// ``WebSocketConfiguration/idleTimeout``); runs the closing handshake (a received code
/// is echoed), then lets the client see the server's FIN and closes TCP, with
/// ``WebSocketConfiguration/closeTimeout`` bounding every wait.
///
/// **Backpressure policy.** Outgoing frames are queued in a ``WriteBuffer`` and handed
/// to the socket at the end of the current read (so a read's replies go out in one write)
/// or at once when sent from elsewhere. ``bufferedAmount`` counts everything not yet
/// taken by the kernel.
/// - Above ``WebSocketConfiguration/outgoingHighWater`` the connection stops reading from
///   the client (its sends stall in TCP, so an echo-style peer cannot make us buffer) and
///   calls ``onBackpressure`` once: the layer above should stop sending and, when
///   ``onWritable`` runs (below half the high-water mark), resynchronise (e.g. send one
///   fresh snapshot instead of the patches it dropped).
/// - A send while more than ``WebSocketConfiguration/outgoingLimit`` is buffered fails
///   the connection with 1008 (policy violation): a client that does not read cannot
///   make the server buffer without bound, whether or not the layer above listens.
///
/// **Memory.** An idle connection holds this object and the parser state; its pings and
/// idle timeout are ticked by its loop's ``KeepAliveClock``, not a timer of its own.
/// Reassembly buffers exist only while a fragmented message arrives; a spare write buffer
/// is kept between writes (up to 64 KiB) only while the client is sending, and dropped
/// after a quiet keep-alive interval.
public final class WebSocketConnection {
    /// Where the connection is in its life.
    public enum State: Equatable, Sendable {
        /// Messages flow both ways.
        case open
        /// A close frame was sent or received: no more messages are sent or delivered.
        case closing
        /// The socket is closed; ``onClose`` has run or is about to.
        case closed
    }

    /// The loop the connection lives on.
    public let loop: EventLoop
    /// The limits and timers in force.
    public let configuration: WebSocketConfiguration
    /// Where the connection is in its life.
    public private(set) var state = State.open

    /// Called with every complete text message.
    public var onText: ((String) -> Void)?
    /// Called with every complete binary message.
    public var onBinary: (([UInt8]) -> Void)?
    /// Called with the payload of every pong received.
    public var onPong: (([UInt8]) -> Void)?
    /// Called once, when the socket has closed: the close code (the one the peer sent; the
    /// one we failed the connection with; 1005 when the peer's close had no code; 1006
    /// when the connection dropped without a close) and the reason.
    public var onClose: ((WebSocketCloseCode, String) -> Void)?
    /// Called when outgoing data passes the high-water mark (see the backpressure policy).
    public var onBackpressure: (() -> Void)?
    /// Called when outgoing data has drained below half the high-water mark after
    /// ``onBackpressure``.
    public var onWritable: (() -> Void)?

    /// For ``WebSocketGroup``: runs after ``onClose``, when the socket has closed.
    var onSocketClosed: (() -> Void)?

    /// The close code reported to ``onClose`` (nil while open).
    public private(set) var closeCode: WebSocketCloseCode?
    /// The close reason reported to ``onClose``.
    public private(set) var closeReason = ""

    private let tcp: TCPConnection
    private var assembler: MessageAssembler

    /// Inside a read: frames are batched and written when it ends.
    private var isDispatching = false
    /// Frames not yet handed to the socket.
    private var outgoing: WriteBuffer?
    /// A drained buffer kept for the next write.
    private var spare: WriteBuffer?
    /// Over the high-water mark: reading is paused.
    private var isBackpressured = false

    private var closeSent = false
    private var closeReceived = false
    /// The close handshake is over (or failed): waiting for the peer's FIN, then closing.
    private var isLingering = false
    private var tcpClosed = false

    /// The keep-alive interval while this connection is on its loop's ``KeepAliveClock``.
    private var keepAliveInterval: Duration?
    private var closeTimer: LoopTimer?
    private var receivedSinceTick = false
    private var quietTicks = 0

    /// Spare write buffers larger than this are released rather than kept.
    private static let spareCapacityLimit = 64 << 10

    /// Takes over `connection` (its handshake done). Nothing is read until ``start(initialBytes:)``:
    /// set the callbacks first. Loop-confined.
    public init(connection: TCPConnection, configuration: WebSocketConfiguration = WebSocketConfiguration()) {
        self.tcp = connection
        self.loop = connection.loop
        self.configuration = configuration
        assembler = MessageAssembler(maxFrameSize: configuration.maxFrameSize,
                                     maxMessageSize: configuration.maxMessageSize)
    }

    /// Starts reading, after handling `initialBytes` (what the client sent right after its
    /// handshake request, in the same read). Call once. Loop-confined.
    public func start(initialBytes: [UInt8] = []) {
        try? tcp.setNoDelay(true)
        if !initialBytes.isEmpty {
            initialBytes.withUnsafeBytes { didRead(.bytes($0)) }
        }
        guard !tcpClosed else { return }
        startReading()
        if state == .open { startKeepAlive() }
    }

    // MARK: - Sending

    /// Bytes sent but not yet taken by the kernel (queued frames plus the socket's queue).
    public var bufferedAmount: Int {
        (outgoing?.count ?? 0) + tcp.writeQueueSize
    }

    /// `false` while backpressured (see the policy in the type's documentation).
    public var isWritable: Bool { !isBackpressured }

    /// Sends a text message. Returns `false` when it was not sent: the connection is
    /// closing, or the outgoing limit was hit (the connection is then failed with 1008).
    /// Loop-confined.
    @discardableResult
    public func send(text: String) -> Bool {
        guard let buffer = bufferForDataFrame() else { return false }
        FrameWriter.appendText(text, to: buffer)
        didEnqueue()
        return true
    }

    /// Sends a text message whose payload is already UTF-8 (not checked: the caller
    /// vouches for it), sparing a `String`. See ``send(text:)``.
    @discardableResult
    public func send(utf8Text: [UInt8]) -> Bool {
        guard let buffer = bufferForDataFrame() else { return false }
        utf8Text.withUnsafeBytes { FrameWriter.appendFrame(opcode: .text, payload: $0, to: buffer) }
        didEnqueue()
        return true
    }

    /// Sends a binary message. See ``send(text:)``.
    @discardableResult
    public func send(binary: [UInt8]) -> Bool {
        binary.withUnsafeBytes { send(binary: $0) }
    }

    /// Sends a binary message from raw bytes (copied before returning). See ``send(text:)``.
    @discardableResult
    public func send(binary: UnsafeRawBufferPointer) -> Bool {
        guard let buffer = bufferForDataFrame() else { return false }
        FrameWriter.appendFrame(opcode: .binary, payload: binary, to: buffer)
        didEnqueue()
        return true
    }

    /// Sends a ping (payload at most 125 bytes; longer is cut). Loop-confined.
    public func ping(_ payload: [UInt8] = []) {
        guard state == .open else { return }
        FrameWriter.appendFrame(opcode: .ping, payload: Array(payload.prefix(125)), to: pendingBuffer())
        didEnqueue()
    }

    /// Starts the closing handshake: sends a close frame with `code` and `reason` (at most
    /// 123 bytes of it), then waits up to the close timeout for the client's close frame
    /// and FIN. Does nothing unless open. Graceful server shutdown uses ``WebSocketCloseCode/goingAway``.
    /// Loop-confined.
    public func close(code: WebSocketCloseCode = .normalClosure, reason: String = "") {
        guard state == .open else { return }
        sendClose(code: code, reason: reason)
        armCloseTimer()
    }

    /// Drops the connection at once, without a closing handshake (reported as 1006).
    /// Loop-confined.
    public func abort() {
        closeSocket()
    }

    // MARK: - Output internals

    private func pendingBuffer() -> WriteBuffer {
        if let outgoing { return outgoing }
        let buffer = spare ?? WriteBuffer()
        spare = nil
        outgoing = buffer
        return buffer
    }

    /// The buffer for a message, or nil when the message must not be sent (and the
    /// connection failed when over the limit).
    private func bufferForDataFrame() -> WriteBuffer? {
        loop.preconditionLoopConfinedPublic()
        guard state == .open else { return nil }
        if bufferedAmount > configuration.outgoingLimit {
            failConnection(code: .policyViolation, reason: "outgoing buffer limit exceeded")
            return nil
        }
        return pendingBuffer()
    }

    private func didEnqueue() {
        if !isDispatching { flush() }
        if !isBackpressured && bufferedAmount > configuration.outgoingHighWater {
            isBackpressured = true
            if !isLingering { tcp.stopReading() }
            onBackpressure?()
        }
    }

    /// Hands the queued frames to the socket in one write. Most go out whole at once;
    /// only what the kernel did not take is queued. While backpressured every write is
    /// queued: its completion is what resumes reading.
    private func flush() {
        guard let buffer = outgoing, !tcpClosed else { return }
        outgoing = nil
        do {
            let written = isBackpressured ? 0 : try tcp.tryWrite(buffer)
            if written == buffer.count {
                keepAsSpare(buffer)
                return
            }
            try tcp.write(buffer, from: written) { [self] error in writeCompleted(buffer, error: error) }
        } catch {
            closeSocket()
        }
    }

    private func writeCompleted(_ buffer: WriteBuffer, error: UVError?) {
        if error != nil {
            closeSocket()
            return
        }
        keepAsSpare(buffer)
        if isBackpressured && bufferedAmount <= configuration.outgoingHighWater / 2 {
            isBackpressured = false
            if !tcpClosed { startReading() }
            if state == .open { onWritable?() }
        }
    }

    /// Only a connection that is talking keeps a spare: an idle one (a scene sent,
    /// nothing since) would hold it for nothing.
    private func keepAsSpare(_ buffer: WriteBuffer) {
        if spare == nil && receivedSinceTick && buffer.capacity <= Self.spareCapacityLimit {
            buffer.removeAll(keepingCapacity: true)
            spare = buffer
        }
    }

    private func sendClose(code: WebSocketCloseCode?, reason: String) {
        guard !closeSent else { return }
        closeSent = true
        state = .closing
        FrameWriter.appendClose(code: code, reason: reason, to: pendingBuffer())
        if !isDispatching { flush() }
    }

    // MARK: - Input

    private func startReading() {
        do {
            try tcp.startReading { [self] event in didRead(event) }
        } catch {
            closeSocket()
        }
    }

    private func didRead(_ event: TCPConnection.ReadEvent) {
        switch event {
        case .bytes(let bytes):
            receivedSinceTick = true
            // After the handshake failed or finished, the rest of the stream is drained unread.
            guard !isLingering else { return }
            isDispatching = true
            do throws(WebSocketError) {
                try assembler.receive(bytes) { (message) throws(WebSocketError) in deliver(message) }
            } catch {
                failConnection(code: error.closeCode, reason: error.description)
            }
            isDispatching = false
            flush()
        case .eof, .error:
            // The peer is gone (or, while lingering, has seen our FIN and closed).
            closeSocket()
        }
    }

    private func deliver(_ message: MessageAssembler.Message) {
        guard !closeReceived, !tcpClosed else { return }
        switch message {
        case .text(let text):
            if state == .open { onText?(text) }
        case .binary(let bytes):
            if state == .open { onBinary?(bytes) }
        case .ping(let payload):
            if state == .open {
                FrameWriter.appendFrame(opcode: .pong, payload: payload, to: pendingBuffer())
                didEnqueue()
            }
        case .pong(let payload):
            if state == .open { onPong?(payload) }
        case .close(let code, let reason):
            closeReceived = true
            if closeCode == nil {
                closeCode = code ?? .noStatusReceived
                closeReason = reason
            }
            // Echo the peer's code (RFC 6455 §5.5.1); then the handshake is complete.
            sendClose(code: code, reason: "")
            linger()
        }
    }

    /// Fails the connection: a close frame with `code` (unless one was sent), then linger.
    private func failConnection(code: WebSocketCloseCode, reason: String) {
        if closeCode == nil {
            closeCode = code
            closeReason = reason
        }
        sendClose(code: code, reason: reason)
        linger()
    }

    // MARK: - Closing

    /// The closing handshake is over: send our FIN once the queued frames are out, read
    /// and discard until the client's FIN (the server closes TCP first, RFC 6455 §7.1.1,
    /// without resetting it while the client still sends), bounded by the close timeout.
    private func linger() {
        guard !isLingering, !tcpClosed else { return }
        isLingering = true
        state = .closing
        flush()
        stopKeepAlive()
        do {
            try tcp.shutdown { [self] error in if error != nil { closeSocket() } }
        } catch {
            closeSocket()
            return
        }
        if isBackpressured { startReading() }
        armCloseTimer()
    }

    private func armCloseTimer() {
        closeTimer?.close()
        closeTimer = loop.scheduleTimer(after: configuration.closeTimeout) { [self] in
            closeTimer = nil
            closeSocket()
        }
    }

    /// Closes the socket (pending writes are cancelled) and reports ``onClose``.
    private func closeSocket() {
        guard !tcpClosed else { return }
        tcpClosed = true
        state = .closed
        if closeCode == nil { closeCode = .abnormalClosure }
        stopKeepAlive()
        closeTimer?.close()
        closeTimer = nil
        outgoing = nil
        spare = nil
        tcp.close { [self] in
            let onClose = self.onClose
            // Release every callback: closures that capture the connection must not leak.
            self.onText = nil
            self.onBinary = nil
            self.onPong = nil
            self.onClose = nil
            self.onBackpressure = nil
            self.onWritable = nil
            onClose?(closeCode ?? .abnormalClosure, closeReason)
            let onSocketClosed = self.onSocketClosed
            self.onSocketClosed = nil
            onSocketClosed?()
        }
    }

    // MARK: - Keep-alive

    private func startKeepAlive() {
        guard let interval = configuration.pingInterval ?? configuration.idleTimeout else { return }
        keepAliveInterval = interval
        KeepAliveClock.join(self, loop: loop, interval: interval)
    }

    private func stopKeepAlive() {
        guard let interval = keepAliveInterval else { return }
        keepAliveInterval = nil
        KeepAliveClock.leave(self, loop: loop, interval: interval)
    }

    /// Called by the ``KeepAliveClock`` every `interval`.
    func keepAliveTick(interval: Duration) {
        guard state == .open else { return }
        if receivedSinceTick {
            receivedSinceTick = false
            quietTicks = 0
            return
        }
        quietTicks += 1
        // A quiet connection gives its spare write buffer back.
        if outgoing == nil { spare = nil }
        if let idleTimeout = configuration.idleTimeout, interval * quietTicks >= idleTimeout {
            close(code: .goingAway, reason: "idle timeout")
            return
        }
        if configuration.pingInterval != nil { ping() }
    }
}

extension EventLoop {
    /// `preconditionLoopConfined` is internal to EventLoop; this is the public equivalent.
    @inline(__always)
    func preconditionLoopConfinedPublic(_ function: StaticString = #function) {
        precondition(isLoopThread || !isRunning, "\(function) is loop-confined: call it on the event loop thread")
    }
}
