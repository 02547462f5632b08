/// Holds one replaceable disposable: setting a new one disposes the previous one, and
/// once this is disposed any newly set one is disposed at once.
public final class SerialDisposable: Cancelable, @unchecked Sendable {
    #if TRACE_RESOURCES
    private let resourceToken = ResourceToken()
    #endif
    private let lock = Lock.make()
    private var current: Disposable?
    private var disposed = false

    /// A new, empty serial disposable.
    public init() {}

    /// `true` once disposed.
    public var isDisposed: Bool {
        lock.performLocked { disposed }
    }

    /// The current inner disposable. Setting it disposes the previous one.
    public var disposable: Disposable {
        get {
            lock.performLocked { current ?? Disposables.create() }
        }
        set {
            let toDispose: Disposable? = lock.performLocked {
                if disposed { return newValue }
                let previous = current
                current = newValue
                return previous
            }
            toDispose?.dispose()
        }
    }

    /// Disposes the current inner disposable and every later one.
    public func dispose() {
        let toDispose: Disposable? = lock.performLocked {
            if disposed { return nil }
            disposed = true
            let previous = current
            current = nil
            return previous
        }
        toDispose?.dispose()
    }
}
