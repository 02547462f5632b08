/// Something that is, or can be turned into, an ``Infallible``: a sequence that never errors.
public protocol InfallibleType: ObservableConvertibleType {}

/// An observable-like sequence that never sends an error.
///
/// Unlike `Driver`/`Signal` it neither shares its subscription nor changes threads: it
/// is an `Observable` with a compile-time promise, as in RxSwift.
public struct Infallible<Element>: InfallibleType {
    private let source: Observable<Element>

    /// Wraps `source`, which must never error; the `asInfallible(onError…)` conversions
    /// and ``Infallible/create(subscribe:)`` guarantee it.
    init(_ source: Observable<Element>) {
        self.source = source
    }

    /// The wrapped observable.
    public func asObservable() -> Observable<Element> {
        source
    }
}

/// What an ``Infallible`` delivers: elements, then possibly completion.
@frozen public enum InfallibleEvent<Element> {
    /// An element.
    case next(Element)
    /// The sequence completed.
    case completed
}

extension InfallibleType {
    /// Subscribes handlers for the elements, the completion and the disposal (there is no
    /// error to handle).
    public func subscribe(
        onNext: ((Element) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        asObservable().subscribe(onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Subscribes handlers that receive `object`, held weakly; they are skipped once it
    /// is gone.
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onNext: ((Object, Element) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        asObservable().subscribe(with: object, onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Subscribes a handler to every event.
    public func subscribe(_ on: @escaping (InfallibleEvent<Element>) -> Void) -> Disposable {
        asObservable().subscribe { event in
            switch event {
            case .next(let element): on(.next(element))
            case .completed: on(.completed)
            case .error(let error):
                // Broken promise: `Infallible(_:)` was given a failing source.
                Hooks.defaultErrorHandler([], error)
            }
        }
    }
}
