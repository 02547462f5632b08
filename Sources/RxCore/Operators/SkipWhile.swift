extension ObservableType {
    /// Drops elements while `predicate` holds, then sends every element from the first
    /// one for which it fails. A throwing predicate ends the sequence with its error.
    public func skip(while predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        SkipWhile(source: asObservable(), predicate: predicate)
    }

    /// Renamed `skip(while:)` in RxSwift 6.
    @available(*, deprecated, renamed: "skip(while:)")
    public func skipWhile(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        skip(while: predicate)
    }
}

private final class SkipWhile<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let predicate: (Element) throws -> Bool

    init(source: Observable<Element>, predicate: @escaping (Element) throws -> Bool) {
        self.source = source
        self.predicate = predicate
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = SkipWhileSink(predicate: predicate, observer: observer, cancel: cancel)
        let subscription = source.subscribe(node: sink)
        return (sink, subscription)
    }
}

private final class SkipWhileSink<Element>: Sink<Element, Element> {
    private let predicate: (Element) throws -> Bool
    private var skipping = true

    init(predicate: @escaping (Element) throws -> Bool, observer: ObserverNode<Element>, cancel: Cancelable) {
        self.predicate = predicate
        super.init(observer: observer, cancel: cancel)
    }

    override func onNext(_ element: Element) {
        if skipping {
            do {
                skipping = try predicate(element)
            } catch {
                forwardError(error)
                dispose()
                return
            }
            if skipping { return }
        }
        forwardNext(element)
    }
}
