import Foundation

/// Blocks the calling thread until ``stop()`` or a timeout.
///
/// On the process main thread it runs the main run loop in short slices instead of
/// sleeping (RxSwift's RxBlocking runs the run loop too): blocks sent to the main
/// dispatch queue, which is where `MainScheduler` sends work when no Bindery loop is
/// installed, keep running, so a source that delivers on `MainScheduler` can finish.
/// Elsewhere it waits on a condition.
final class BlockingWait: @unchecked Sendable {
    /// How long one run-loop slice may last before `stopped` is checked again.
    private static let slice: TimeInterval = 0.01

    private let condition = NSCondition()
    private var stopped = false // guarded by `condition`
    private let runsMainRunLoop = Thread.isMainThread

    private var isStopped: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopped
    }

    /// Ends the wait. Callable from any thread, any number of times.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
        if runsMainRunLoop && !Thread.isMainThread {
            // Wakes the main run loop now rather than at the end of its slice.
            DispatchQueue.main.async {}
        }
    }

    /// Blocks until ``stop()`` has been called or `timeout` seconds have passed; returns
    /// `false` on timeout.
    func wait(timeout: TimeInterval?) -> Bool {
        let deadline = timeout.map { Date().addingTimeInterval($0) }
        if runsMainRunLoop {
            while !isStopped {
                let now = Date()
                if let deadline, now >= deadline { return isStopped }
                let sliceEnd = now.addingTimeInterval(Self.slice)
                let until = deadline.map { min($0, sliceEnd) } ?? sliceEnd
                if !RunLoop.current.run(mode: .default, before: until) {
                    // No input sources: nothing to pump, so sleep out the slice.
                    sleepUntil(until)
                }
            }
            return true
        }
        condition.lock()
        defer { condition.unlock() }
        while !stopped {
            if let deadline {
                if !condition.wait(until: deadline) { return stopped }
            } else {
                condition.wait()
            }
        }
        return true
    }

    /// Waits on the condition until `date` or ``stop()``.
    private func sleepUntil(_ date: Date) {
        condition.lock()
        if !stopped {
            _ = condition.wait(until: date)
        }
        condition.unlock()
    }
}
