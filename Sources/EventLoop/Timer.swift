import CLibUV

/// A libuv timer (`uv_timer_t`): runs a handler on the loop thread after a delay, once
/// or repeatedly.
///
/// Loop-confined (see ``EventLoop``). The timer keeps itself and its loop alive from
/// `init` until ``close(_:)`` completes, so it fires even if you drop your reference;
/// closing releases the handler, so a handler that captures its own timer does not leak.
/// ``EventLoop/scheduleTimer(after:repeating:_:)`` makes one-shot timers that close
/// themselves after firing.
///
/// Named `LoopTimer`, not `Timer`, so it does not clash with `Foundation.Timer`.
public final class LoopTimer {
    /// The loop the timer runs on.
    public let loop: EventLoop

    private let handle: UnsafeMutablePointer<uv_timer_t>
    private var handler: (() -> Void)?
    private var onClosed: (() -> Void)?
    /// Monotonic time (uv_hrtime, ns) before which the first firing must not happen; 0
    /// once it has happened. libuv's loop clock is a coarse, truncated millisecond clock,
    /// so it can fire up to ~2 ms early by a precise clock; this catches that.
    private var deadline: UInt64 = 0
    private var repeatMilliseconds: UInt64 = 0
    /// Set for one-shot timers from `scheduleTimer` and `schedule(after:)`.
    var closesAfterFiring = false

    /// `true` once ``close(_:)`` has been called; a closed timer cannot be restarted.
    public private(set) var isClosed = false

    /// Creates a stopped timer on `loop`. Loop-confined.
    public init(loop: EventLoop) {
        loop.preconditionLoopConfined()
        self.loop = loop
        handle = .allocate(capacity: 1)
        handle.initialize(to: uv_timer_t())
        // uv_timer_init only links the handle into the loop; it cannot fail.
        uv_timer_init(loop.uvLoop, handle)
        // Released in the close callback: libuv may call us until then.
        handle.pointee.data = Unmanaged.passRetained(self).toOpaque()
    }

    /// `true` while the timer is armed.
    public var isActive: Bool {
        !isClosed && uv_is_active(bindery_timer_handle(handle)) != 0
    }

    /// Arms the timer: `handler` runs after `delay` (no earlier, by the monotonic clock,
    /// than `delay` after this call), then every `interval` if one is given. Restarting
    /// an armed timer replaces its schedule and handler. Loop-confined.
    ///
    /// libuv timers have millisecond resolution: delays round up to whole milliseconds,
    /// and a repeat interval is at least 1 ms.
    public func start(after delay: Duration, repeating interval: Duration? = nil,
                      _ handler: @escaping () -> Void) {
        start(deadline: Self.deadline(after: delay.clampedNanoseconds), repeating: interval, handler)
    }

    /// Arms the timer for an absolute monotonic deadline (uv_hrtime nanoseconds).
    func start(deadline: UInt64, repeating interval: Duration?, _ handler: @escaping () -> Void) {
        loop.preconditionLoopConfined()
        precondition(!isClosed, "LoopTimer.start on a closed timer")
        self.handler = handler
        self.deadline = max(deadline, 1)
        repeatMilliseconds = interval.map { max(1, Self.milliseconds(roundingUp: $0.clampedNanoseconds)) } ?? 0
        arm()
    }

    /// Disarms the timer; it keeps its handle and may be started again. Loop-confined.
    public func stop() {
        loop.preconditionLoopConfined()
        guard !isClosed else { return }
        uv_timer_stop(handle)
    }

    /// Disarms the timer for good and releases its handler; `onClosed` runs on the loop
    /// thread once libuv has let go of the handle (its memory is freed then). Calling it
    /// again does nothing. Loop-confined.
    public func close(_ onClosed: (() -> Void)? = nil) {
        loop.preconditionLoopConfined()
        guard !isClosed else { return }
        isClosed = true
        handler = nil
        self.onClosed = onClosed
        // uv_close stops the timer; the handle is freed in the callback, not before.
        uv_close(bindery_timer_handle(handle), timerCloseCallback)
    }

    /// Starts the libuv timer so that it fires at `deadline` or later.
    private func arm() {
        // The loop clock was read at the start of this turn; refresh it so the delay
        // counts from now, not from then.
        uv_update_time(loop.uvLoop)
        // Fire when loop time (a coarse clock that never runs ahead of uv_hrtime) reaches
        // the deadline in whole milliseconds, rounded up.
        let due = Self.milliseconds(roundingUp: deadline)
        let now = uv_now(loop.uvLoop)
        uv_timer_start(handle, timerCallback, due > now ? due - now : 0, repeatMilliseconds)
    }

    fileprivate func fire() {
        if deadline != 0 {
            if uv_hrtime() < deadline {
                arm()
                return
            }
            deadline = 0
        }
        guard let handler else { return }
        handler()
        if closesAfterFiring && !isClosed && uv_is_active(bindery_timer_handle(handle)) == 0 {
            close()
        }
    }

    fileprivate func didClose() {
        let onClosed = self.onClosed
        self.onClosed = nil
        handle.deallocate()
        onClosed?()
    }

    /// `uv_hrtime()` plus `nanoseconds`, saturating.
    static func deadline(after nanoseconds: UInt64) -> UInt64 {
        let (deadline, overflow) = uv_hrtime().addingReportingOverflow(nanoseconds)
        return overflow ? .max : deadline
    }

    static func milliseconds(roundingUp nanoseconds: UInt64) -> UInt64 {
        nanoseconds / 1_000_000 + (nanoseconds % 1_000_000 == 0 ? 0 : 1)
    }
}

private let timerCallback: uv_timer_cb = { handle in
    guard let handle, let data = handle.pointee.data else { return }
    Unmanaged<LoopTimer>.fromOpaque(data).takeUnretainedValue().fire()
}

private let timerCloseCallback: uv_close_cb = { handle in
    guard let handle, let data = handle.pointee.data else { return }
    let timer = Unmanaged<LoopTimer>.fromOpaque(data)
    timer.takeUnretainedValue().didClose()
    timer.release()
}

extension Duration {
    /// This duration in nanoseconds; negative durations count as zero, huge ones saturate.
    var clampedNanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        if seconds < 0 || (seconds == 0 && attoseconds <= 0) { return 0 }
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return .max }
        let (total, overflow2) = whole.addingReportingOverflow(UInt64(max(0, attoseconds) / 1_000_000_000))
        return overflow2 ? .max : total
    }
}
