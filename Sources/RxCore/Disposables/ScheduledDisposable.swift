import Synchronization

/// Disposes its inner disposable on a scheduler.
public final class ScheduledDisposable: Cancelable, @unchecked Sendable {
    #if TRACE_RESOURCES
    private let resourceToken = ResourceToken()
    #endif
    /// The scheduler the inner disposable is disposed on.
    public let scheduler: ImmediateSchedulerType

    private let disposed = Atomic<Bool>(false)
    private var disposable: Disposable?

    /// Wraps `disposable`, to be disposed on `scheduler`.
    public init(scheduler: ImmediateSchedulerType, disposable: Disposable) {
        self.scheduler = scheduler
        self.disposable = disposable
    }

    /// `true` once disposed.
    public var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    /// Schedules the disposal of the inner disposable.
    public func dispose() {
        _ = scheduler.schedule(self) { scheduled in
            scheduled.disposeInner()
            return Disposables.create()
        }
    }

    private func disposeInner() {
        guard disposed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        let inner = disposable
        disposable = nil
        inner?.dispose()
    }
}
