import Synchronization

/// Disposes two disposables, once.
final class BinaryDisposable: Cancelable, @unchecked Sendable {
    #if TRACE_RESOURCES
    private let resourceToken = ResourceToken()
    #endif
    private let disposed = Atomic<Bool>(false)
    // Written by `init`, then only by the one `dispose` that wins `disposed`: no dynamic
    // exclusivity checks needed.
    @exclusivity(unchecked) private var disposable1: Disposable?
    @exclusivity(unchecked) private var disposable2: Disposable?

    init(_ disposable1: Disposable, _ disposable2: Disposable) {
        self.disposable1 = disposable1
        self.disposable2 = disposable2
    }

    var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    func dispose() {
        guard disposed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        // Moved out, not copied: no existential copy and destroy through value witnesses.
        let first = disposable1.take()
        let second = disposable2.take()
        first?.dispose()
        second?.dispose()
    }
}
