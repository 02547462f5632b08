import Synchronization

/// Runs an action once on the first `dispose`.
final class AnonymousDisposable: Cancelable, @unchecked Sendable {
    #if TRACE_RESOURCES
    private let resourceToken = ResourceToken()
    #endif
    private let disposed = Atomic<Bool>(false)
    private var action: (() -> Void)?

    init(_ action: @escaping () -> Void) {
        self.action = action
    }

    var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    func dispose() {
        guard disposed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        let action = self.action
        self.action = nil
        action?()
    }
}
