/// Disposes what it holds when it is deinitialised (or replaced), in insertion order.
///
/// The usual owner is a view controller: `.disposed(by: disposeBag)`.
public final class DisposeBag: @unchecked Sendable {
    #if TRACE_RESOURCES
    private let resourceToken = ResourceToken()
    #endif
    private let lock = Lock.make()
    private var disposables: [Disposable] = []
    private var isDisposed = false

    /// An empty bag.
    public init() {}

    /// A bag holding `disposables`.
    public convenience init(disposing disposables: Disposable...) {
        self.init()
        self.disposables += disposables
    }

    /// A bag holding what the builder returns.
    public convenience init(@DisposableBuilder builder: () -> [Disposable]) {
        self.init(disposing: builder())
    }

    /// A bag holding `disposables`.
    public convenience init(disposing disposables: [Disposable]) {
        self.init()
        self.disposables += disposables
    }

    /// Adds `disposable`; disposes it at once when the bag is already disposed.
    public func insert(_ disposable: Disposable) {
        insert([disposable])
    }

    /// Adds every argument.
    public func insert(_ disposables: Disposable...) {
        insert(disposables)
    }

    /// Adds what the builder returns.
    public func insert(@DisposableBuilder builder: () -> [Disposable]) {
        insert(builder())
    }

    /// Adds every element of `disposables`.
    public func insert(_ disposables: [Disposable]) {
        let rejected: [Disposable] = lock.performLocked {
            if isDisposed { return disposables }
            self.disposables.append(contentsOf: disposables)
            return []
        }
        rejected.forEach { $0.dispose() }
    }

    private func dispose() {
        let all: [Disposable] = lock.performLocked {
            let current = disposables
            disposables.removeAll()
            isDisposed = true
            return current
        }
        all.forEach { $0.dispose() }
    }

    deinit {
        dispose()
    }

    /// Builds an array of disposables from a list of expressions.
    @resultBuilder
    public enum DisposableBuilder {
        /// Collects the listed disposables.
        public static func buildBlock(_ disposables: Disposable...) -> [Disposable] {
            disposables
        }
    }
}

extension Disposable {
    /// Adds this disposable to `bag`.
    public func disposed(by bag: DisposeBag) {
        bag.insert(self)
    }
}
