import Synchronization

/// Holds a disposable that may be set once; disposing it before the set disposes the
/// later one at once.
///
/// Setting it twice is a programmer error and traps.
public final class SingleAssignmentDisposable: Cancelable, @unchecked Sendable {
    #if TRACE_RESOURCES
    private let resourceToken = ResourceToken()
    #endif
    private static let disposedBit = 1
    private static let setBit = 2

    private let state = Atomic<Int>(0)
    private var current: Disposable?

    /// A new, empty disposable.
    public init() {}

    /// `true` once disposed.
    public var isDisposed: Bool {
        state.load(ordering: .acquiring) & Self.disposedBit != 0
    }

    /// Sets the inner disposable; disposes it at once when this one is already disposed.
    public func setDisposable(_ disposable: Disposable) {
        current = disposable
        let previous = state.bitwiseOr(Self.setBit, ordering: .acquiringAndReleasing).oldValue
        precondition(previous & Self.setBit == 0, "SingleAssignmentDisposable: the disposable was already set")
        if previous & Self.disposedBit != 0 {
            current = nil
            disposable.dispose()
        }
    }

    /// Disposes the inner disposable, if set, once.
    public func dispose() {
        let previous = state.bitwiseOr(Self.disposedBit, ordering: .acquiringAndReleasing).oldValue
        if previous & Self.disposedBit != 0 { return }
        if previous & Self.setBit != 0 {
            let disposable = current
            current = nil
            disposable?.dispose()
        }
    }
}
