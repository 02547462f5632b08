import Synchronization

/// Disposes its underlying disposable once the primary disposable and every inner one
/// handed out by ``retain()`` have been disposed.
public final class RefCountDisposable: Cancelable, @unchecked Sendable {
    #if TRACE_RESOURCES
    private let resourceToken = ResourceToken()
    #endif
    private let lock = Lock.make()
    private var disposable: Disposable?
    private var primaryDisposed = false
    private var count = 0

    /// Wraps `disposable`.
    public init(disposable: Disposable) {
        self.disposable = disposable
    }

    /// `true` once the underlying disposable has been disposed.
    public var isDisposed: Bool {
        lock.performLocked { disposable == nil }
    }

    /// An inner disposable that keeps the underlying one alive until it is disposed.
    public func retain() -> Disposable {
        lock.performLocked {
            if disposable == nil {
                return Disposables.create()
            }
            count += 1
            return RefCountInnerDisposable(self)
        }
    }

    /// Disposes the primary reference.
    public func dispose() {
        let toDispose: Disposable? = lock.performLocked {
            guard let current = disposable, !primaryDisposed else { return nil }
            primaryDisposed = true
            if count == 0 {
                disposable = nil
                return current
            }
            return nil
        }
        toDispose?.dispose()
    }

    fileprivate func release() {
        let toDispose: Disposable? = lock.performLocked {
            guard let current = disposable else { return nil }
            precondition(count > 0, "RefCountDisposable: released more often than retained")
            count -= 1
            if primaryDisposed && count == 0 {
                disposable = nil
                return current
            }
            return nil
        }
        toDispose?.dispose()
    }
}

private final class RefCountInnerDisposable: Disposable, @unchecked Sendable {
    private let parent: RefCountDisposable
    private let disposed = Atomic<Bool>(false)

    init(_ parent: RefCountDisposable) {
        self.parent = parent
    }

    func dispose() {
        guard disposed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        parent.release()
    }
}
