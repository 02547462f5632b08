extension ObservableType where Element: Equatable {
    /// Drops each element equal to the last element sent. The first element always passes.
    public func distinctUntilChanged() -> Observable<Element> {
        DistinctUntilChanged(source: asObservable(), keySelector: { $0 }, comparer: { $0 == $1 })
    }
}

extension ObservableType {
    /// Drops each element whose key equals the key of the last element sent. The first
    /// element always passes; a throwing key selector ends the sequence with its error.
    public func distinctUntilChanged<Key: Equatable>(_ keySelector: @escaping (Element) throws -> Key) -> Observable<Element> {
        DistinctUntilChanged(source: asObservable(), keySelector: keySelector, comparer: { $0 == $1 })
    }

    /// Drops each element that `comparer` finds equal to the last element sent. The first
    /// element always passes; a throwing comparer ends the sequence with its error.
    public func distinctUntilChanged(_ comparer: @escaping (Element, Element) throws -> Bool) -> Observable<Element> {
        DistinctUntilChanged(source: asObservable(), keySelector: { $0 }, comparer: comparer)
    }

    /// Drops each element whose key `comparer` finds equal to the key of the last element
    /// sent. The first element always passes; a throwing key selector or comparer ends the
    /// sequence with its error.
    public func distinctUntilChanged<Key>(_ keySelector: @escaping (Element) throws -> Key, comparer: @escaping (Key, Key) throws -> Bool) -> Observable<Element> {
        DistinctUntilChanged(source: asObservable(), keySelector: keySelector, comparer: comparer)
    }

    /// Drops each element whose property at `keyPath` equals that of the last element sent.
    public func distinctUntilChanged<Property: Equatable>(at keyPath: KeyPath<Element, Property>) -> Observable<Element> {
        DistinctUntilChanged(source: asObservable(), keySelector: { $0 }, comparer: { $0[keyPath: keyPath] == $1[keyPath: keyPath] })
    }
}

private final class DistinctUntilChanged<Element, Key>: Producer<Element> {
    private let source: Observable<Element>
    private let keySelector: (Element) throws -> Key
    private let comparer: (Key, Key) throws -> Bool

    init(source: Observable<Element>, keySelector: @escaping (Element) throws -> Key, comparer: @escaping (Key, Key) throws -> Bool) {
        self.source = source
        self.keySelector = keySelector
        self.comparer = comparer
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = DistinctUntilChangedSink(keySelector: keySelector, comparer: comparer, observer: observer, cancel: cancel)
        let subscription = source.subscribe(node: sink)
        return (sink, subscription)
    }
}

private final class DistinctUntilChangedSink<Element, Key>: Sink<Element, Element> {
    private let keySelector: (Element) throws -> Key
    private let comparer: (Key, Key) throws -> Bool
    /// The key of the last element sent; a dropped element never replaces it.
    private var lastKey: Key?

    init(keySelector: @escaping (Element) throws -> Key, comparer: @escaping (Key, Key) throws -> Bool, observer: ObserverNode<Element>, cancel: Cancelable) {
        self.keySelector = keySelector
        self.comparer = comparer
        super.init(observer: observer, cancel: cancel)
    }

    override func onNext(_ element: Element) {
        do {
            let key = try keySelector(element)
            if let lastKey, try comparer(lastKey, key) {
                return
            }
            lastKey = key
        } catch {
            forwardError(error)
            dispose()
            return
        }
        forwardNext(element)
    }
}
