/// A ``ReplaySubject`` that never terminates: it replays its buffer to each new
/// subscriber and only accepts elements.
public final class ReplayRelay<Element>: ObservableType, @unchecked Sendable { // the subject is thread-safe
    private let subject: ReplaySubject<Element>

    private init(subject: ReplaySubject<Element>) {
        self.subject = subject
    }

    /// A relay that replays at most the last `bufferSize` elements.
    public static func create(bufferSize: Int) -> ReplayRelay<Element> {
        ReplayRelay(subject: ReplaySubject.create(bufferSize: bufferSize))
    }

    /// A relay that replays every element it ever accepted.
    public static func createUnbounded() -> ReplayRelay<Element> {
        ReplayRelay(subject: ReplaySubject.createUnbounded())
    }

    /// RxRelay's name for ``createUnbounded()``.
    public static func createUnbound() -> ReplayRelay<Element> {
        createUnbounded()
    }

    /// Buffers `event` and sends it to the current observers.
    public func accept(_ event: Element) {
        subject.onNext(event)
    }

    /// Subscribes `observer`: it gets the buffer at once, then every later element.
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
