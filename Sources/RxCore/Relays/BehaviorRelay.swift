/// A ``BehaviorSubject`` that never terminates: it holds a current value, which each new
/// subscriber gets first, and only accepts elements.
public final class BehaviorRelay<Element>: ObservableType, @unchecked Sendable { // the subject is thread-safe
    private let subject: BehaviorSubject<Element>

    /// A relay whose current value is `value`.
    public init(value: Element) {
        subject = BehaviorSubject(value: value)
    }

    /// The current value.
    public var value: Element {
        // The subject is never terminated nor disposed, so `value()` cannot throw.
        try! subject.value()
    }

    /// Makes `event` the current value and sends it to the current observers.
    public func accept(_ event: Element) {
        subject.onNext(event)
    }

    /// Subscribes `observer`: it gets the current value at once, then every later one.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        subject.subscribe(observer)
    }

    /// The relay's values as an `Observable` (the underlying subject).
    public func asObservable() -> Observable<Element> {
        subject
    }

    /// A node feeding the underlying subject directly, for relay bindings.
    var inputNode: ObserverNode<Element> {
        subject.inputNode
    }
}
