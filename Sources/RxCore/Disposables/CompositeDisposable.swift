/// A group of disposables disposed together.
public final class CompositeDisposable: Cancelable, @unchecked Sendable {
    #if TRACE_RESOURCES
    private let resourceToken = ResourceToken()
    #endif
    /// The key of an inserted disposable, for ``remove(for:)``.
    public struct DisposeKey: Hashable, Sendable {
        fileprivate let key: BagKey
    }

    private let lock = Lock.make()
    private var disposables: Bag<Disposable>? = Bag()

    /// An empty group.
    public init() {}

    /// A group of two.
    public init(_ disposable1: Disposable, _ disposable2: Disposable) {
        _ = disposables!.insert(disposable1)
        _ = disposables!.insert(disposable2)
    }

    /// A group of three.
    public init(_ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable) {
        _ = disposables!.insert(disposable1)
        _ = disposables!.insert(disposable2)
        _ = disposables!.insert(disposable3)
    }

    /// A group of four or more.
    public init(_ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable, _ disposable4: Disposable, _ disposables: Disposable...) {
        for disposable in [disposable1, disposable2, disposable3, disposable4] + disposables {
            _ = self.disposables!.insert(disposable)
        }
    }

    /// A group of any number.
    public init(disposables: [Disposable]) {
        for disposable in disposables {
            _ = self.disposables!.insert(disposable)
        }
    }

    /// `true` once disposed.
    public var isDisposed: Bool {
        lock.performLocked { disposables == nil }
    }

    /// The number of disposables in the group; 0 after dispose.
    public var count: Int {
        lock.performLocked { disposables?.count ?? 0 }
    }

    /// Adds `disposable`; when the group is already disposed, disposes it at once and
    /// returns `nil`.
    public func insert(_ disposable: Disposable) -> DisposeKey? {
        let key: BagKey? = lock.performLocked { disposables?.insert(disposable) }
        guard let key else {
            disposable.dispose()
            return nil
        }
        return DisposeKey(key: key)
    }

    /// Removes and disposes the disposable for `disposeKey`.
    public func remove(for disposeKey: DisposeKey) {
        let removed: Disposable? = lock.performLocked { disposables?.removeKey(disposeKey.key) }
        removed?.dispose()
    }

    /// Disposes every disposable in the group, in insertion order.
    public func dispose() {
        let all: Bag<Disposable>? = lock.performLocked {
            let current = disposables
            disposables = nil
            return current
        }
        all?.forEach { $0.dispose() }
    }
}
