import CLibUV
import Dispatch
import RxCore
import Synchronization

/// The loop is RxCore's main run loop while it runs (``EventLoop/run()`` installs it), so
/// `MainScheduler` work lands on the loop thread. `isLoopThread` and `execute(_:)` are
/// in `Loop.swift`.
extension EventLoop: MainRunLoop {
    /// Runs `work` on the loop thread after `delay` (no earlier, by the monotonic clock,
    /// than `delay` after this call). Thread-safe: off the loop thread, the timer is
    /// started by hopping onto the loop.
    ///
    /// - Returns: a disposable, thread-safe, that cancels the timer. Disposing it before
    ///   the timer fires guarantees `work` does not run (if the firing has not already
    ///   begun on the loop thread); disposing later does nothing.
    public func schedule(after delay: RxTimeInterval, _ work: @escaping @Sendable () -> Void) -> Disposable {
        guard let nanoseconds = delay.clampedNanoseconds else {
            return Disposables.create()  // .never
        }
        // The deadline counts from now, whichever thread we are on.
        let deadline = LoopTimer.deadline(after: nanoseconds)
        let scheduled = ScheduledWork(loop: self, work: work)
        if isLoopThread {
            scheduled.start(deadline: deadline)
        } else {
            execute { scheduled.start(deadline: deadline) }
        }
        return scheduled
    }
}

/// One `schedule(after:)`: created on any thread, armed and fired on the loop thread,
/// disposable from any thread.
private final class ScheduledWork: Disposable, @unchecked Sendable {
    // @unchecked Sendable: `state` is atomic; `work` is set in init and then touched only
    // on the loop thread (the hop through `execute` publishes it); `timer` is loop-only.

    private static let pending: UInt8 = 0
    private static let fired: UInt8 = 1
    private static let cancelled: UInt8 = 2

    /// One compare-and-swap decides between firing and cancelling, so `work` runs at most
    /// once and never after a dispose that won the race.
    private let state = Atomic<UInt8>(ScheduledWork.pending)
    private let loop: EventLoop
    private var work: (@Sendable () -> Void)?
    private var timer: LoopTimer?

    init(loop: EventLoop, work: @escaping @Sendable () -> Void) {
        self.loop = loop
        self.work = work
    }

    /// Loop thread.
    func start(deadline: UInt64) {
        guard state.load(ordering: .acquiring) == Self.pending else {
            work = nil
            return
        }
        let timer = LoopTimer(loop: loop)
        timer.closesAfterFiring = true
        // The timer's handler retains self until the timer closes (after firing, or on
        // cancel), and self retains the timer until then: the cycle ends with the timer.
        timer.start(deadline: deadline, repeating: nil) { [self] in fire() }
        self.timer = timer
    }

    /// Loop thread.
    private func fire() {
        timer = nil
        let work = self.work
        self.work = nil
        if state.compareExchange(expected: Self.pending, desired: Self.fired,
                                 ordering: .acquiringAndReleasing).exchanged {
            work?()
        }
    }

    func dispose() {
        guard state.compareExchange(expected: Self.pending, desired: Self.cancelled,
                                    ordering: .acquiringAndReleasing).exchanged else { return }
        if loop.isLoopThread {
            cancelOnLoop()
        } else {
            loop.execute { self.cancelOnLoop() }
        }
    }

    /// Loop thread.
    private func cancelOnLoop() {
        timer?.close()
        timer = nil
        work = nil
    }
}

extension DispatchTimeInterval {
    /// Nanoseconds, negative counted as zero; `nil` for `.never`.
    var clampedNanoseconds: UInt64? {
        let nanoseconds: Int64
        switch self {
        case .seconds(let value): nanoseconds = Int64(value).multipliedReportingOverflow(by: 1_000_000_000).partialValue
        case .milliseconds(let value): nanoseconds = Int64(value) * 1_000_000
        case .microseconds(let value): nanoseconds = Int64(value) * 1_000
        case .nanoseconds(let value): nanoseconds = Int64(value)
        case .never: return nil
        @unknown default: return nil
        }
        return UInt64(max(0, nanoseconds))
    }
}
