import Synchronization

/// The base of operators: subscribing runs ``run(_:cancel:)`` inside the current-thread
/// trampoline and ties the sink and its upstream subscription to one disposer.
class Producer<Element>: Observable<Element> {
    override init() {}

    override func subscribe(node observer: ObserverNode<Element>) -> Disposable {
        if !CurrentThreadScheduler.isScheduleRequired {
            return runWithDisposer(observer)
        }
        // The first subscribe on this thread owns the trampoline. Non-generic and
        // non-escaping: no closure context, no metadata for `schedule<StateType>`.
        return CurrentThreadScheduler.runAsTrampolineOwner {
            runWithDisposer(observer)
        }
    }

    private func runWithDisposer(_ observer: ObserverNode<Element>) -> Disposable {
        let disposer = SinkDisposer()
        let sinkAndSubscription = run(observer, cancel: disposer)
        disposer.setSinkAndSubscription(sink: sinkAndSubscription.sink, subscription: sinkAndSubscription.subscription)
        return disposer
    }

    /// Builds the sink for `observer` and subscribes it upstream. The sink disposes
    /// `cancel` when it terminates.
    func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        rxAbstractMethod()
    }
}

/// Disposes a sink and its subscription once both are known; a sink that terminates
/// during `run` (before they are known) has them disposed as soon as they are set.
final class SinkDisposer: Cancelable, @unchecked Sendable {
    private static let disposedBit = 1
    private static let setBit = 2

    private let state = Atomic<Int>(0)
    // Guarded by `state`: written once before `setBit`, cleared once by whoever sees
    // both bits. No dynamic exclusivity checks needed.
    @exclusivity(unchecked) private var sink: Disposable?
    @exclusivity(unchecked) private var subscription: Disposable?

    var isDisposed: Bool {
        state.load(ordering: .acquiring) & Self.disposedBit != 0
    }

    func setSinkAndSubscription(sink: Disposable, subscription: Disposable) {
        self.sink = sink
        self.subscription = subscription
        let previous = state.bitwiseOr(Self.setBit, ordering: .acquiringAndReleasing).oldValue
        precondition(previous & Self.setBit == 0, "SinkDisposer: sink and subscription already set")
        if previous & Self.disposedBit != 0 {
            disposeBoth()
        }
    }

    func dispose() {
        let previous = state.bitwiseOr(Self.disposedBit, ordering: .acquiringAndReleasing).oldValue
        if previous & Self.disposedBit != 0 { return }
        if previous & Self.setBit != 0 {
            disposeBoth()
        }
    }

    private func disposeBoth() {
        let sink = self.sink.take()
        let subscription = self.subscription.take()
        sink?.dispose()
        subscription?.dispose()
    }
}
