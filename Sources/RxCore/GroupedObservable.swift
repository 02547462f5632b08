/// A sequence of the elements that share a key; `groupBy` sends one per key.
public struct GroupedObservable<Key, Element>: ObservableType {
    /// The key every element of this group has.
    public let key: Key

    private let source: Observable<Element>

    /// A group of `source`'s elements, with `key`.
    public init(key: Key, source: Observable<Element>) {
        self.key = key
        self.source = source
    }

    /// Subscribes `observer` to the group's elements.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        source.subscribe(observer)
    }

    /// The group's elements as an `Observable`.
    public func asObservable() -> Observable<Element> {
        source
    }
}
