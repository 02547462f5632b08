import CLibUV

/// One TCP connection (a `uv_tcp_t` stream), as accepted by ``TCPListener``.
///
/// Loop-confined (see ``EventLoop``); every callback runs on the loop thread. The
/// connection keeps itself and its loop alive until ``close(_:)`` completes: dropping
/// your last reference does not close it, so always close it, typically when reading
/// reports ``ReadEvent/eof`` or ``ReadEvent/error(_:)``.
///
/// Memory: an idle connection holds its libuv handle and this object, no read buffer.
/// Reads land in the loop's one shared buffer (see ``ReadEvent/bytes(_:)``).
public final class TCPConnection {
    /// What a read delivers.
    public enum ReadEvent {
        /// Bytes received. They live in the loop's shared read buffer and are valid
        /// **only during the callback**: parse them or copy them before returning, and do
        /// not keep the pointer. At most ``EventLoop/readBufferSize`` bytes per event.
        case bytes(UnsafeRawBufferPointer)
        /// The peer closed its sending side (FIN). Reading has stopped; writing may still
        /// work until you close.
        case eof
        /// Reading failed (e.g. `ECONNRESET`). Reading has stopped; close the connection.
        case error(UVError)
    }

    /// The loop the connection runs on.
    public let loop: EventLoop

    /// The libuv handle (internal for `TCPConnection+Connect.swift`).
    let handle: UnsafeMutablePointer<uv_tcp_t>
    private var onRead: ((ReadEvent) -> Void)?
    private var onClosed: (() -> Void)?

    /// `true` once ``close(_:)`` has been called.
    public private(set) var isClosed = false

    /// Accepts a pending connection from a listening stream.
    init(acceptingFrom server: UnsafeMutablePointer<uv_stream_t>, loop: EventLoop) throws(UVError) {
        let handle = UnsafeMutablePointer<uv_tcp_t>.allocate(capacity: 1)
        handle.initialize(to: uv_tcp_t())
        let initRC = uv_tcp_init(loop.uvLoop, handle)
        guard initRC == 0 else {
            handle.deallocate()
            throw UVError(code: initRC, operation: "create socket for accepted connection")
        }
        let acceptRC = uv_accept(server, bindery_tcp_stream(handle))
        guard acceptRC == 0 else {
            uv_close(bindery_tcp_handle(handle), freeUnownedTCPHandle)
            throw UVError(code: acceptRC, operation: "accept connection")
        }
        self.loop = loop
        self.handle = handle
        // Released in the close callback: libuv may call us until then.
        handle.pointee.data = Unmanaged.passRetained(self).toOpaque()
    }

    /// Creates an unconnected socket on `loop`, for ``connect(to:on:_:)``.
    init(unconnectedOn loop: EventLoop) throws(UVError) {
        let handle = UnsafeMutablePointer<uv_tcp_t>.allocate(capacity: 1)
        handle.initialize(to: uv_tcp_t())
        let initRC = uv_tcp_init(loop.uvLoop, handle)
        guard initRC == 0 else {
            handle.deallocate()
            throw UVError(code: initRC, operation: "create socket for outgoing connection")
        }
        self.loop = loop
        self.handle = handle
        // Released in the close callback: libuv may call us until then.
        handle.pointee.data = Unmanaged.passRetained(self).toOpaque()
    }

    private var stream: UnsafeMutablePointer<uv_stream_t> { bindery_tcp_stream(handle) }

    // MARK: - Reading

    /// Starts delivering received bytes, end of stream and read errors to `onRead`
    /// (replacing any previous handler). Loop-confined.
    ///
    /// - Throws: ``UVError`` when the connection can no longer be read (closed, or
    ///   after end of stream).
    public func startReading(_ onRead: @escaping (ReadEvent) -> Void) throws(UVError) {
        loop.preconditionLoopConfined()
        guard !isClosed else { throw UVError(code: bindery_uv_einval(), operation: "read from closed connection") }
        self.onRead = onRead
        if isReading { return }
        if !isYielding {
            try UVError.check(uv_read_start(stream, connectionAllocCallback, connectionReadCallback),
                              "start reading")
        }
        isReading = true
    }

    /// Stops reading (backpressure: the kernel buffers, then the peer's sends stall).
    /// The handler is kept for the next ``startReading(_:)``. Loop-confined.
    public func stopReading() {
        loop.preconditionLoopConfined()
        guard !isClosed, isReading else { return }
        if !isYielding { uv_read_stop(stream) }
        isReading = false
    }

    private var isReading = false
    /// Reading is paused until the next loop turn so that others get theirs.
    private var isYielding = false

    /// A read that fills the buffer means more is waiting, and libuv would read this
    /// socket again at once (up to 32 buffers) before serving anyone else: one client
    /// sending fast could hold the loop for a second. Pause it until the next turn.
    private func yieldReading() {
        uv_read_stop(stream)
        isYielding = true
        // Held until the next turn: a weak capture would give the connection a side table,
        // and each of its retains and releases the slow path.
        loop.scheduleTimer(after: .zero) { [self] in resumeAfterYield() }
    }

    private func resumeAfterYield() {
        isYielding = false
        guard isReading, !isClosed else { return }
        let status = uv_read_start(stream, connectionAllocCallback, connectionReadCallback)
        if status != 0 {
            isReading = false
            onRead?(.error(UVError(code: status, operation: "start reading")))
        }
    }

    fileprivate func didRead(count: Int, base: UnsafeMutableRawPointer?) {
        guard let onRead else { return }
        if count > 0 {
            onRead(.bytes(UnsafeRawBufferPointer(start: base, count: count)))
            if count == loop.readBuffer.count, isReading, !isYielding, !isClosed { yieldReading() }
        } else if count < 0 {
            // libuv has stopped reading on EOF and on errors.
            isReading = false
            let error = UVError(code: Int32(count), operation: "read")
            onRead(error.isEOF ? .eof : .error(error))
        }
        // count == 0: nothing read this time (EAGAIN); libuv calls again later.
    }

    // MARK: - Writing

    /// Writes `buffer`; `completion` runs on the loop thread once the kernel has taken
    /// every byte (nil) or the write failed (e.g. `ECANCELED` when the connection was
    /// closed first). The connection keeps `buffer` alive until then; do not change it
    /// meanwhile. Writes complete in the order they were made. Loop-confined.
    ///
    /// - Throws: ``UVError`` when libuv refuses the write at once (closed connection,
    ///   or writing after ``shutdown(_:)``); `completion` is then not called.
    public func write(_ buffer: WriteBuffer, completion: ((UVError?) -> Void)? = nil) throws(UVError) {
        try write(.one(buffer), completion: completion)
    }

    /// Writes several buffers in one system call (`uv_write` with one `uv_buf_t` each),
    /// so a layer above can batch a turn's output. Completion and lifetime as in
    /// `write(_:completion:)`: one completion for the whole batch.
    public func write(_ buffers: [WriteBuffer], completion: ((UVError?) -> Void)? = nil) throws(UVError) {
        try write(.many(buffers), completion: completion)
    }

    /// Writes what the kernel takes of `buffer` now, without queuing (`uv_try_write`), and
    /// returns how many bytes that was: 0 when the socket would block, or while earlier
    /// writes are still queued (so the order of bytes is kept). Write the rest with
    /// ``write(_:from:completion:)`` before anything else. A write done here needs no request and no
    /// callback, and libuv does not re-arm the socket after it, as it does after every
    /// queued write. Loop-confined.
    ///
    /// - Throws: ``UVError`` when the connection cannot be written (closed, reset).
    public func tryWrite(_ buffer: WriteBuffer) throws(UVError) -> Int {
        loop.preconditionLoopConfined()
        guard !isClosed else { throw UVError(code: bindery_uv_ecanceled(), operation: "write to closed connection") }
        guard buffer.count > 0 else { return 0 }
        var buf = buffer.uvBuf()
        let rc = uv_try_write(stream, &buf, 1)
        if rc >= 0 { return Int(rc) }
        if rc == bindery_uv_eagain() { return 0 }
        throw UVError(code: rc, operation: "write")
    }

    /// Writes `buffer`'s bytes from `offset` on (the rest after a ``tryWrite(_:)``).
    /// Completion and lifetime as in ``write(_:completion:)``.
    public func write(_ buffer: WriteBuffer, from offset: Int, completion: ((UVError?) -> Void)? = nil) throws(UVError) {
        precondition(offset >= 0 && offset <= buffer.count, "write offset out of range")
        try write(offset == 0 ? .one(buffer) : .tail(buffer, from: offset), completion: completion)
    }

    /// Writes a copy of `bytes` (one copy into a ``WriteBuffer``; build a `WriteBuffer`
    /// yourself to avoid it). Completion as in `write(_:completion:)`.
    public func write(_ bytes: [UInt8], completion: ((UVError?) -> Void)? = nil) throws(UVError) {
        try write(.one(WriteBuffer(bytes)), completion: completion)
    }

    private func write(_ buffers: WriteRequest.Buffers, completion: ((UVError?) -> Void)?) throws(UVError) {
        loop.preconditionLoopConfined()
        guard !isClosed else { throw UVError(code: bindery_uv_ecanceled(), operation: "write to closed connection") }
        let request = WriteRequest(buffers: buffers, completion: completion)
        request.submit()
        let rc = buffers.withUVBufs { bufs in
            uv_write(request.request, stream, bufs.baseAddress, UInt32(bufs.count), connectionWriteCallback)
        }
        guard rc == 0 else {
            request.abandon()
            throw UVError(code: rc, operation: "write")
        }
    }

    /// Bytes accepted by `write(_:completion:)` that the kernel has not taken yet
    /// (`uv_stream_get_write_queue_size`). Watch it for backpressure: when it grows, the
    /// peer is reading slower than you write. 0 once closed.
    public var writeQueueSize: Int {
        isClosed ? 0 : Int(uv_stream_get_write_queue_size(stream))
    }

    /// Closes the sending side (FIN) once queued writes are done; `completion` runs on
    /// the loop thread then. Reading continues. Loop-confined.
    ///
    /// - Throws: ``UVError`` when libuv refuses at once (closed, already shut down).
    public func shutdown(_ completion: ((UVError?) -> Void)? = nil) throws(UVError) {
        loop.preconditionLoopConfined()
        guard !isClosed else { throw UVError(code: bindery_uv_ecanceled(), operation: "shut down closed connection") }
        let request = ShutdownRequest(completion: completion)
        request.submit()
        let rc = uv_shutdown(request.request, stream, connectionShutdownCallback)
        guard rc == 0 else {
            request.abandon()
            throw UVError(code: rc, operation: "shut down")
        }
    }

    // MARK: - Closing

    /// Closes the connection. Pending writes complete with `ECANCELED`, then `onClosed`
    /// runs on the loop thread and the handle's memory is freed. No read callback runs
    /// after this call. Calling it again does nothing. Loop-confined.
    public func close(_ onClosed: (() -> Void)? = nil) {
        loop.preconditionLoopConfined()
        guard !isClosed else { return }
        isClosed = true
        isReading = false
        onRead = nil
        self.onClosed = onClosed
        uv_close(bindery_tcp_handle(handle), connectionCloseCallback)
    }

    fileprivate func didClose() {
        let onClosed = self.onClosed
        self.onClosed = nil
        handle.deallocate()
        onClosed?()
    }

    // MARK: - Options and addresses

    /// Turns Nagle's algorithm off (`TCP_NODELAY`, true) so small writes go out at once,
    /// or back on. Loop-confined.
    public func setNoDelay(_ enabled: Bool) throws(UVError) {
        loop.preconditionLoopConfined()
        guard !isClosed else { throw UVError(code: bindery_uv_einval(), operation: "set TCP_NODELAY on closed connection") }
        try UVError.check(uv_tcp_nodelay(handle, enabled ? 1 : 0), "set TCP_NODELAY")
    }

    /// The remote address, asked of the kernel each time (not stored, to keep idle
    /// connections small); nil once closed or when the peer is gone. Loop-confined.
    public var peerAddress: SocketAddress? {
        loop.preconditionLoopConfined()
        guard !isClosed else { return nil }
        return SocketAddress.read { uv_tcp_getpeername(handle, $0, $1) }
    }

    /// The local address of the connection; nil once closed. Loop-confined.
    public var localAddress: SocketAddress? {
        loop.preconditionLoopConfined()
        guard !isClosed else { return nil }
        return SocketAddress.read { uv_tcp_getsockname(handle, $0, $1) }
    }
}

// MARK: - Requests

/// A `uv_write_t` and what must outlive it: the buffers (libuv reads them until the
/// callback) and the completion. Retained by the request's `data` until the callback.
private final class WriteRequest {
    enum Buffers {
        case one(WriteBuffer)
        case many([WriteBuffer])
        /// The bytes of one buffer from an offset on.
        case tail(WriteBuffer, from: Int)

        /// Calls `body` with a `uv_buf_t` per buffer. The array may be temporary: uv_write
        /// copies it into the request.
        func withUVBufs<Result>(_ body: (UnsafeMutableBufferPointer<uv_buf_t>) -> Result) -> Result {
            switch self {
            case .one(let buffer):
                var buf = buffer.uvBuf()
                return withUnsafeMutablePointer(to: &buf) { body(UnsafeMutableBufferPointer(start: $0, count: 1)) }
            case .tail(let buffer, let offset):
                var buf = buffer.uvBuf(from: offset)
                return withUnsafeMutablePointer(to: &buf) { body(UnsafeMutableBufferPointer(start: $0, count: 1)) }
            case .many(let buffers):
                return withUnsafeTemporaryAllocation(of: uv_buf_t.self, capacity: max(1, buffers.count)) { bufs in
                    for (index, buffer) in buffers.enumerated() {
                        bufs.initializeElement(at: index, to: buffer.uvBuf())
                    }
                    return body(UnsafeMutableBufferPointer(rebasing: bufs[..<buffers.count]))
                }
            }
        }

        func forEach(_ body: (WriteBuffer) -> Void) {
            switch self {
            case .one(let buffer), .tail(let buffer, _): body(buffer)
            case .many(let buffers): buffers.forEach(body)
            }
        }
    }

    let request: UnsafeMutablePointer<uv_write_t>
    private let buffers: Buffers
    private let completion: ((UVError?) -> Void)?

    init(buffers: Buffers, completion: ((UVError?) -> Void)?) {
        self.buffers = buffers
        self.completion = completion
        request = .allocate(capacity: 1)
        request.initialize(to: uv_write_t())
    }

    /// About to hand the request to libuv: keep everything alive until the callback.
    func submit() {
        buffers.forEach { $0.writesInFlight += 1 }
        request.pointee.data = Unmanaged.passRetained(self).toOpaque()
    }

    /// libuv refused the request and will not call back: undo `submit`.
    func abandon() {
        buffers.forEach { $0.writesInFlight -= 1 }
        request.deallocate()
        Unmanaged.passUnretained(self).release()
    }

    func complete(status: Int32) {
        buffers.forEach { $0.writesInFlight -= 1 }
        request.deallocate()
        completion?(status < 0 ? UVError(code: status, operation: "write") : nil)
    }
}

/// A `uv_shutdown_t` and its completion; retained by the request's `data` until the
/// callback.
private final class ShutdownRequest {
    let request: UnsafeMutablePointer<uv_shutdown_t>
    private let completion: ((UVError?) -> Void)?

    init(completion: ((UVError?) -> Void)?) {
        self.completion = completion
        request = .allocate(capacity: 1)
        request.initialize(to: uv_shutdown_t())
    }

    /// About to hand the request to libuv: keep it alive until the callback.
    func submit() {
        request.pointee.data = Unmanaged.passRetained(self).toOpaque()
    }

    /// libuv refused the request and will not call back: undo `submit`.
    func abandon() {
        request.deallocate()
        Unmanaged.passUnretained(self).release()
    }

    func complete(status: Int32) {
        request.deallocate()
        completion?(status < 0 ? UVError(code: status, operation: "shut down") : nil)
    }
}

// MARK: - libuv callbacks

/// Every read on a loop gets the loop's one shared buffer: the read callback consumes
/// it before libuv asks for a buffer again.
private let connectionAllocCallback: uv_alloc_cb = { handle, _, buf in
    guard let handle, let buf else { return }
    let loop = EventLoop.from(handle.pointee.loop)
    buf.pointee = uv_buf_init(loop.readBuffer.baseAddress!.assumingMemoryBound(to: CChar.self),
                              UInt32(loop.readBuffer.count))
}

private let connectionReadCallback: uv_read_cb = { stream, count, buf in
    guard let stream, let data = stream.pointee.data else { return }
    let connection = Unmanaged<TCPConnection>.fromOpaque(data).takeUnretainedValue()
    connection.didRead(count: count, base: buf.flatMap { UnsafeMutableRawPointer($0.pointee.base) })
}

private let connectionWriteCallback: uv_write_cb = { request, status in
    guard let request, let data = request.pointee.data else { return }
    Unmanaged<WriteRequest>.fromOpaque(data).takeRetainedValue().complete(status: status)
}

private let connectionShutdownCallback: uv_shutdown_cb = { request, status in
    guard let request, let data = request.pointee.data else { return }
    Unmanaged<ShutdownRequest>.fromOpaque(data).takeRetainedValue().complete(status: status)
}

private let connectionCloseCallback: uv_close_cb = { handle in
    guard let handle, let data = handle.pointee.data else { return }
    let connection = Unmanaged<TCPConnection>.fromOpaque(data)
    connection.takeUnretainedValue().didClose()
    connection.release()
}

extension WriteBuffer {
    /// The bytes from `offset` on, as libuv takes them.
    fileprivate func uvBuf(from offset: Int = 0) -> uv_buf_t {
        uv_buf_init(baseAddress.map { ($0 + offset).assumingMemoryBound(to: CChar.self) }, UInt32(count - offset))
    }
}
