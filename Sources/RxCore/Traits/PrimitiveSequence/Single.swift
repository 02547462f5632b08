import Synchronization

/// The trait of ``Single``: exactly one element, or an error.
public enum SingleTrait {}

/// A sequence that sends exactly one element (then completes) or fails.
public typealias Single<Element> = PrimitiveSequence<SingleTrait, Element>

/// What a ``Single`` delivers: `.success(element)` or `.failure(error)`.
public typealias SingleEvent<Element> = Result<Element, Swift.Error>

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// The callback a ``Single/create(subscribe:)`` body sends its one event to.
    public typealias SingleObserver = (SingleEvent<Element>) -> Void

    /// A single whose subscribe runs `subscribe`: `.success` sends the element and
    /// completes, `.failure` fails; only the first event counts.
    @inlinable
    public static func create(subscribe: @escaping (@escaping SingleObserver) -> Disposable) -> Single<Element> {
        let source = Observable<Element>.create { observer in
            subscribe { event in
                switch event {
                case .success(let element):
                    observer.onNext(element)
                    observer.onCompleted()
                case .failure(let error):
                    observer.onError(error)
                }
            }
        }
        return PrimitiveSequence(raw: source)
    }

    /// Subscribes `observer` to the one event of this single.
    public func subscribe(_ observer: @escaping (SingleEvent<Element>) -> Void) -> Disposable {
        primitiveSequence.source.subscribe(node: SingleEventObserver(observer))
    }

    /// Subscribes handlers: `onSuccess` or `onFailure`, then `onDisposed`; an explicit
    /// dispose calls only `onDisposed`. A missing `onFailure` sends the error to
    /// ``Hooks/defaultErrorHandler``.
    @inlinable
    public func subscribe(
        onSuccess: ((Element) -> Void)? = nil,
        onFailure: ((Swift.Error) -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        // `subscribe(onNext:onError:onCompleted:onDisposed:)` has the same contract; an
        // element is the success because a single's completion follows it.
        primitiveSequence.source.subscribe(
            onNext: onSuccess,
            onError: onFailure,
            onDisposed: onDisposed
        )
    }

    /// Subscribes handlers: `onSuccess` or `onError`, then `onDisposed`.
    @available(*, deprecated, renamed: "subscribe(onSuccess:onFailure:onDisposed:)")
    public func subscribe(
        onSuccess: ((Element) -> Void)? = nil,
        onError: @escaping ((Swift.Error) -> Void),
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        subscribe(onSuccess: onSuccess, onFailure: onError, onDisposed: onDisposed)
    }

    /// Subscribes handlers that receive `object`, held weakly; they are skipped once it
    /// is gone.
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onSuccess: ((Object, Element) -> Void)? = nil,
        onFailure: ((Object, Swift.Error) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        subscribe(
            onSuccess: { [weak object] element in
                guard let object else { return }
                onSuccess?(object, element)
            },
            onFailure: { [weak object] error in
                guard let object else { return }
                onFailure?(object, error)
            },
            onDisposed: { [weak object] in
                guard let object else { return }
                onDisposed?(object)
            }
        )
    }
}

/// Turns a single's events into one `SingleEvent`; anything after the first is ignored.
private final class SingleEventObserver<Element>: ObserverNode<Element> {
    private let stopped = Atomic<Bool>(false)
    private let handler: (SingleEvent<Element>) -> Void

    init(_ handler: @escaping (SingleEvent<Element>) -> Void) {
        self.handler = handler
    }

    override func onNext(_ element: Element) {
        guard stopped.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        handler(.success(element))
    }

    override func onError(_ error: Swift.Error) {
        guard stopped.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        handler(.failure(error))
    }

    override func onCompleted() {
        // Reached only when the source completes empty, breaking the single's promise
        // (RxSwift stops in debug builds); reported as `asSingle()` reports it.
        guard stopped.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        handler(.failure(RxError.noElements))
    }
}
