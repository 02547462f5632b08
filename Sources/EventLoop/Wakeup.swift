import CLibUV

/// A cross-thread wake-up (`uv_async_t`): ``wake()`` from any thread makes the handler run
/// on the loop thread.
///
/// Wake-ups coalesce: several `wake()` calls before the loop gets round to it run the
/// handler once, so the handler should drain whatever state the wakers left rather than
/// count calls. ``EventLoop/execute(_:)`` is built the same way and is usually what you
/// want; a `Wakeup` suits a producer that fills its own queue.
///
/// `init` and ``close(_:)`` are loop-confined (see ``EventLoop``); ``wake()`` is
/// thread-safe and does nothing once the wake-up is closed. The wake-up keeps itself and
/// its loop alive until `close` completes, and keeps the loop's `uv_run` from returning
/// on its own (which ``EventLoop/run()`` never does anyway).
public final class Wakeup: @unchecked Sendable {
    // @unchecked Sendable: `handle` is guarded by `lock` (wake() reads it off the loop,
    // close() clears it); `handler` and `onClosed` are touched only on the loop thread.

    /// The loop the handler runs on.
    public let loop: EventLoop

    private let lock = ThreadLock()
    private var handle: UnsafeMutablePointer<uv_async_t>?
    private var handler: (() -> Void)?
    private var onClosed: (() -> Void)?

    /// Creates a wake-up whose `handler` runs on `loop`'s thread. Loop-confined.
    ///
    /// - Throws: ``UVError`` if libuv cannot create the handle.
    public init(loop: EventLoop, _ handler: @escaping () -> Void) throws(UVError) {
        loop.preconditionLoopConfined()
        let handle = UnsafeMutablePointer<uv_async_t>.allocate(capacity: 1)
        handle.initialize(to: uv_async_t())
        let rc = uv_async_init(loop.uvLoop, handle, wakeupCallback)
        guard rc == 0 else {
            // Never initialised, so never linked into the loop: plain free.
            handle.deallocate()
            throw UVError(code: rc, operation: "create wake-up")
        }
        self.loop = loop
        self.handle = handle
        self.handler = handler
        handle.pointee.data = Unmanaged.passRetained(self).toOpaque()
    }

    /// Makes the handler run soon on the loop thread. Thread-safe; a no-op once closed.
    public func wake() {
        // Under the lock so close() cannot free the handle while uv_async_send uses it.
        lock.withLock {
            if let handle { uv_async_send(handle) }
        }
    }

    /// `true` once ``close(_:)`` has been called.
    public var isClosed: Bool {
        lock.withLock { handle == nil }
    }

    /// Closes the handle; `onClosed` runs on the loop thread once libuv has let go of it.
    /// Calling it again does nothing. Loop-confined.
    public func close(_ onClosed: (() -> Void)? = nil) {
        loop.preconditionLoopConfined()
        let handle: UnsafeMutablePointer<uv_async_t>? = lock.withLock {
            defer { self.handle = nil }
            return self.handle
        }
        guard let handle else { return }
        handler = nil
        self.onClosed = onClosed
        uv_close(bindery_async_handle(handle), wakeupCloseCallback)
    }

    fileprivate func fire() {
        handler?()
    }

    fileprivate func didClose() {
        let onClosed = self.onClosed
        self.onClosed = nil
        onClosed?()
    }
}

private let wakeupCallback: uv_async_cb = { handle in
    guard let handle, let data = handle.pointee.data else { return }
    Unmanaged<Wakeup>.fromOpaque(data).takeUnretainedValue().fire()
}

private let wakeupCloseCallback: uv_close_cb = { handle in
    guard let handle, let data = handle.pointee.data else { return }
    let wakeup = Unmanaged<Wakeup>.fromOpaque(data)
    UnsafeMutableRawPointer(handle).deallocate()
    wakeup.takeUnretainedValue().didClose()
    wakeup.release()
}
