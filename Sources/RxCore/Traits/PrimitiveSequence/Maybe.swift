import Synchronization

/// The trait of ``Maybe``: at most one element.
public enum MaybeTrait {}

/// A sequence that sends one element then completes, completes empty, or fails.
public typealias Maybe<Element> = PrimitiveSequence<MaybeTrait, Element>

/// What a ``Maybe`` delivers.
@frozen public enum MaybeEvent<Element> {
    /// The element (the underlying sequence sends `next` then `completed`).
    case success(Element)
    /// The sequence failed.
    case error(Swift.Error)
    /// The sequence completed without an element.
    case completed
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// The callback a ``Maybe/create(subscribe:)`` body sends its one event to.
    public typealias MaybeObserver = (MaybeEvent<Element>) -> Void

    /// A maybe whose subscribe runs `subscribe`; only the first event counts.
    @inlinable
    public static func create(subscribe: @escaping (@escaping MaybeObserver) -> Disposable) -> PrimitiveSequence<Trait, Element> {
        let source = Observable<Element>.create { observer in
            subscribe { event in
                switch event {
                case .success(let element):
                    observer.onNext(element)
                    observer.onCompleted()
                case .error(let error):
                    observer.onError(error)
                case .completed:
                    observer.onCompleted()
                }
            }
        }
        return PrimitiveSequence(raw: source)
    }

    /// Subscribes `observer` to the one event of this maybe.
    public func subscribe(_ observer: @escaping (MaybeEvent<Element>) -> Void) -> Disposable {
        primitiveSequence.source.subscribe(node: MaybeEventObserver(observer))
    }

    /// Subscribes handlers: `onSuccess`, `onError` or `onCompleted`, then `onDisposed`;
    /// an explicit dispose calls only `onDisposed`. `onCompleted` runs only when the maybe
    /// completes empty. A missing `onError` sends the error to ``Hooks/defaultErrorHandler``.
    public func subscribe(
        onSuccess: ((Element) -> Void)? = nil,
        onError: ((Swift.Error) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        let callStack = Hooks.recordCallStackOnError ? Hooks.customCaptureSubscriptionCallstack() : []
        let disposable: Disposable = onDisposed.map { Disposables.create(with: $0) as Disposable } ?? Disposables.create()
        let observer = MaybeEventObserver<Element> { event in
            switch event {
            case .success(let element):
                onSuccess?(element)
            case .error(let error):
                if let onError {
                    onError(error)
                } else {
                    Hooks.defaultErrorHandler(callStack, error)
                }
            case .completed:
                onCompleted?()
            }
            disposable.dispose()
        }
        return Disposables.create(primitiveSequence.source.subscribe(node: observer), disposable)
    }

    /// Subscribes handlers that receive `object`, held weakly; they are skipped once it
    /// is gone.
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onSuccess: ((Object, Element) -> Void)? = nil,
        onError: ((Object, Swift.Error) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        subscribe(
            onSuccess: { [weak object] element in
                guard let object else { return }
                onSuccess?(object, element)
            },
            onError: { [weak object] error in
                guard let object else { return }
                onError?(object, error)
            },
            onCompleted: { [weak object] in
                guard let object else { return }
                onCompleted?(object)
            },
            onDisposed: { [weak object] in
                guard let object else { return }
                onDisposed?(object)
            }
        )
    }
}

/// Turns a maybe's events into one `MaybeEvent`; anything after the first is ignored.
private final class MaybeEventObserver<Element>: ObserverNode<Element> {
    private let stopped = Atomic<Bool>(false)
    private let handler: (MaybeEvent<Element>) -> Void

    init(_ handler: @escaping (MaybeEvent<Element>) -> Void) {
        self.handler = handler
    }

    private func stop() -> Bool {
        stopped.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
    }

    override func onNext(_ element: Element) {
        if stop() { handler(.success(element)) }
    }

    override func onError(_ error: Swift.Error) {
        if stop() { handler(.error(error)) }
    }

    override func onCompleted() {
        if stop() { handler(.completed) }
    }
}
