import Synchronization

/// The trait of ``Completable``: no elements, only completion or an error.
public enum CompletableTrait {}

/// A sequence that only completes or fails.
public typealias Completable = PrimitiveSequence<CompletableTrait, Swift.Never>

/// What a ``Completable`` delivers.
@frozen public enum CompletableEvent {
    /// The sequence failed.
    case error(Swift.Error)
    /// The sequence completed.
    case completed
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Swift.Never {
    /// The callback a ``Completable/create(subscribe:)`` body sends its one event to.
    public typealias CompletableObserver = (CompletableEvent) -> Void

    /// A completable whose subscribe runs `subscribe`; only the first event counts.
    public static func create(subscribe: @escaping (@escaping CompletableObserver) -> Disposable) -> PrimitiveSequence<Trait, Element> {
        let source = Observable<Element>.create { observer in
            subscribe { event in
                switch event {
                case .error(let error): observer.onError(error)
                case .completed: observer.onCompleted()
                }
            }
        }
        return PrimitiveSequence(raw: source)
    }

    /// Subscribes `observer` to the one event of this completable.
    public func subscribe(_ observer: @escaping (CompletableEvent) -> Void) -> Disposable {
        primitiveSequence.source.subscribe(node: CompletableEventObserver(observer))
    }

    /// Subscribes handlers: `onCompleted` or `onError`, then `onDisposed`; an explicit
    /// dispose calls only `onDisposed`. A missing `onError` sends the error to
    /// ``Hooks/defaultErrorHandler``.
    public func subscribe(
        onCompleted: (() -> Void)? = nil,
        onError: ((Swift.Error) -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        primitiveSequence.source.subscribe(onError: onError, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Subscribes handlers that receive `object`, held weakly; they are skipped once it
    /// is gone.
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onCompleted: ((Object) -> Void)? = nil,
        onError: ((Object, Swift.Error) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        subscribe(
            onCompleted: { [weak object] in
                guard let object else { return }
                onCompleted?(object)
            },
            onError: { [weak object] error in
                guard let object else { return }
                onError?(object, error)
            },
            onDisposed: { [weak object] in
                guard let object else { return }
                onDisposed?(object)
            }
        )
    }
}

/// Turns a completable's terminal event into one `CompletableEvent`.
private final class CompletableEventObserver: ObserverNode<Never> {
    private let stopped = Atomic<Bool>(false)
    private let handler: (CompletableEvent) -> Void

    init(_ handler: @escaping (CompletableEvent) -> Void) {
        self.handler = handler
    }

    override func onNext(_ element: Never) {}

    override func onError(_ error: Swift.Error) {
        guard stopped.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        handler(.error(error))
    }

    override func onCompleted() {
        guard stopped.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        handler(.completed)
    }
}
