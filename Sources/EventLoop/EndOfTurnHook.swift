import CLibUV

/// Runs a handler once after every callback of the current turn and before the loop
/// waits for I/O again (libuv's idle phase): a layer can collect what several callbacks
/// produce in one turn and write it in one go.
///
/// An idle handle, not a prepare handle: while one is scheduled, libuv does not block in
/// its poll, so a hook scheduled from inside another hook's handler still runs at once
/// (a prepare handle started during the prepare phase would wait for the next I/O).
/// A zero-delay ``LoopTimer`` would also defer, but libuv's millisecond timer clock can
/// hold it for up to a millisecond; this does not wait.
///
/// Loop-confined (see ``EventLoop``). The hook keeps itself and its loop alive until
/// ``close(_:)`` completes; closing releases the handler.
public final class EndOfTurnHook {
    /// The loop the hook runs on.
    public let loop: EventLoop

    private let handle: UnsafeMutablePointer<uv_idle_t>
    private var handler: (() -> Void)?
    private var onClosed: (() -> Void)?

    /// `true` once ``close(_:)`` has been called.
    public private(set) var isClosed = false

    /// `true` between ``schedule()`` and the handler's run.
    public private(set) var isScheduled = false

    /// Creates an idle hook on `loop` that runs `handler` each time it is scheduled.
    /// Loop-confined.
    public init(loop: EventLoop, _ handler: @escaping () -> Void) {
        loop.preconditionLoopConfined()
        self.loop = loop
        self.handler = handler
        handle = .allocate(capacity: 1)
        handle.initialize(to: uv_idle_t())
        // uv_idle_init only links the handle into the loop; it cannot fail.
        uv_idle_init(loop.uvLoop, handle)
        // Released in the close callback: libuv may call us until then.
        handle.pointee.data = Unmanaged.passRetained(self).toOpaque()
    }

    /// Makes the handler run once before the loop next waits for I/O; scheduling again
    /// before it has run does nothing. Loop-confined.
    public func schedule() {
        loop.preconditionLoopConfined()
        guard !isClosed, !isScheduled else { return }
        isScheduled = true
        uv_idle_start(handle, idleCallback)
    }

    /// Unschedules the hook for good and releases its handler; `onClosed` runs on the
    /// loop thread once libuv has let go of the handle. Calling it again does nothing.
    /// Loop-confined.
    public func close(_ onClosed: (() -> Void)? = nil) {
        loop.preconditionLoopConfined()
        guard !isClosed else { return }
        isClosed = true
        isScheduled = false
        handler = nil
        self.onClosed = onClosed
        uv_close(bindery_idle_handle(handle), idleCloseCallback)
    }

    fileprivate func fire() {
        // Stopped first, so the handler may schedule the hook again (for the next turn).
        uv_idle_stop(handle)
        isScheduled = false
        handler?()
    }

    fileprivate func didClose() {
        let onClosed = self.onClosed
        self.onClosed = nil
        handle.deallocate()
        onClosed?()
    }
}

private let idleCallback: uv_idle_cb = { handle in
    guard let handle, let data = handle.pointee.data else { return }
    Unmanaged<EndOfTurnHook>.fromOpaque(data).takeUnretainedValue().fire()
}

private let idleCloseCallback: uv_close_cb = { handle in
    guard let handle, let data = handle.pointee.data else { return }
    let hook = Unmanaged<EndOfTurnHook>.fromOpaque(data)
    hook.takeUnretainedValue().didClose()
    hook.release()
}
