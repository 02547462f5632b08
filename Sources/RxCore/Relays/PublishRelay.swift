/// A ``PublishSubject`` that never terminates: it only accepts elements.
public final class PublishRelay<Element>: ObservableType, @unchecked Sendable { // the subject is thread-safe
    private let subject = PublishSubject<Element>()

    /// A relay with no observers.
    public init() {}

    /// Sends `event` to the current observers.
    public func accept(_ event: Element) {
        subject.onNext(event)
    }

    /// Subscribes `observer` to the elements accepted from now on.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        subject.subscribe(observer)
    }

    /// The relay's elements as an `Observable` (the underlying subject).
    public func asObservable() -> Observable<Element> {
        subject
    }

    /// A node feeding the underlying subject directly, for relay bindings.
    var inputNode: ObserverNode<Element> {
        subject.inputNode
    }
}
