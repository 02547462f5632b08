import Foundation
import RxCore

/// A stand-in ``MainRunLoop`` whose loop thread is the thread that installed it.
///
/// package-benchmark runs benchmark closures on a pool thread, and its async main parks
/// the process main thread in `dispatch_main`, whose queue is then served by another pool
/// thread: no benchmark can run on the process main thread. The Binder scenarios install
/// this loop for their measurement instead, so the benchmark thread is MainScheduler's
/// loop thread, as the libuv loop thread is in the server. (`InstructionCounts` runs on
/// the real main thread with no loop installed; its callgrind figures are authoritative.)
public final class CurrentThreadLoop: MainRunLoop, @unchecked Sendable {
    private let thread = pthread_self()

    public var isLoopThread: Bool {
        pthread_equal(pthread_self(), thread) != 0
    }

    public func execute(_ work: @escaping @Sendable () -> Void) {
        // Not reached in the scenarios: the Binder runs synchronously on the loop thread.
        DispatchQueue.global().async(execute: work)
    }

    public func schedule(after delay: RxTimeInterval, _ work: @escaping @Sendable () -> Void) -> Disposable {
        let item = DispatchWorkItem(block: work)
        DispatchQueue.global().asyncAfter(deadline: .now() + delay, execute: item)
        return Disposables.create { item.cancel() }
    }

    /// Runs `body` with a loop for the current thread installed, then restores the
    /// previous one.
    public static func run<T>(_ body: () -> T) -> T {
        let loop = CurrentThreadLoop()
        let previous = MainScheduler.install(loop)
        defer { MainScheduler.uninstall(loop, restoring: previous) }
        return body()
    }
}
