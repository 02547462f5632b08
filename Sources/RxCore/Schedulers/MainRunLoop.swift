import Dispatch
import Foundation

/// The loop whose thread is "the main thread" for ``MainScheduler``.
///
/// `EventLoop` provides the libuv implementation and installs it with
/// ``MainScheduler/install(_:)`` while its loop runs. With none installed, the process
/// main thread and the main dispatch queue play the part.
public protocol MainRunLoop: AnyObject, Sendable {
    /// `true` when called on the loop's thread.
    var isLoopThread: Bool { get }

    /// Runs `work` on the loop thread in a later turn. Callable from any thread.
    func execute(_ work: @escaping @Sendable () -> Void)

    /// Runs `work` on the loop thread after `delay`. Callable from any thread.
    ///
    /// - Returns: a disposable that cancels the timer.
    func schedule(after delay: RxTimeInterval, _ work: @escaping @Sendable () -> Void) -> Disposable
}

/// The run loop used when no loop is installed: the main dispatch queue.
final class DispatchMainRunLoop: MainRunLoop {
    static let shared = DispatchMainRunLoop()

    var isLoopThread: Bool { Thread.isMainThread }

    func execute(_ work: @escaping @Sendable () -> Void) {
        DispatchQueue.main.async(execute: work)
    }

    func schedule(after delay: RxTimeInterval, _ work: @escaping @Sendable () -> Void) -> Disposable {
        let item = DispatchWorkItem(block: work)
        DispatchQueue.main.asyncAfter(deadline: .now() + delay, execute: item)
        return Disposables.create { item.cancel() }
    }
}
