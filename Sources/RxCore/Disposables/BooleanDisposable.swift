import Synchronization

/// A disposable that only records whether it was disposed.
public final class BooleanDisposable: Cancelable, @unchecked Sendable {
    /// A disposable that is already disposed.
    public static let booleanDisposableTrue = BooleanDisposable(isDisposed: true)

    private let disposed: Atomic<Bool>

    /// A new, undisposed disposable.
    public init() {
        disposed = Atomic(false)
    }

    /// A new disposable in the given state.
    public init(isDisposed: Bool) {
        disposed = Atomic(isDisposed)
    }

    /// `true` once disposed.
    public var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    /// Marks this disposable as disposed.
    public func dispose() {
        disposed.store(true, ordering: .releasing)
    }
}
