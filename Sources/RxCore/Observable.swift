/// A type-erased observable sequence, the base of every operator.
///
/// Internally each operator receives elements through ``ObserverNode`` (split
/// `onNext`/`onError`/`onCompleted` calls) rather than `Event` values: building an
/// `Event<T>` in unspecialised generic code costs a metadata look-up per element.
public class Observable<Element>: ObservableType {
    #if TRACE_RESOURCES
    private let resourceToken = ResourceToken()
    #endif
    init() {}

    /// Subscribes `observer` to the events of this sequence.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        if let binder = observer as? Binder<Element> {
            return subscribe(node: binder.node)
        }
        return subscribe(node: makeObserverNode(observer))
    }

    /// Subscribes an internal observer. Every concrete sequence overrides this.
    func subscribe(node observer: ObserverNode<Element>) -> Disposable {
        rxAbstractMethod()
    }

    /// This sequence.
    public func asObservable() -> Observable<Element> {
        self
    }
}

extension ObservableType {
    /// Subscribes an internal observer, without wrapping when `self` is already an `Observable`.
    func subscribe(node observer: ObserverNode<Element>) -> Disposable {
        asObservable().subscribe(node: observer)
    }
}

func rxAbstractMethod(file: StaticString = #file, line: UInt = #line) -> Never {
    fatalError("abstract method", file: file, line: line)
}
