extension ObservableType {
    /// Sends each event of this sequence as an element: `next(.next(x))` for elements,
    /// then `next(.completed)` or `next(.error(e))`, then `completed`. Never fails.
    public func materialize() -> Observable<Event<Element>> {
        Materialize(source: asObservable())
    }
}

private final class Materialize<Element>: Producer<Event<Element>> {
    private let source: Observable<Element>

    init(source: Observable<Element>) {
        self.source = source
    }

    override func run(_ observer: ObserverNode<Event<Element>>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = MaterializeSink(observer: observer, cancel: cancel)
        let subscription = source.subscribe(node: sink)
        return (sink, subscription)
    }
}

private final class MaterializeSink<Element>: Sink<Element, Event<Element>> {
    override func onNext(_ element: Element) {
        forwardNext(.next(element))
    }

    override func onError(_ error: Swift.Error) {
        forwardNext(.error(error))
        forwardCompleted()
        dispose()
    }

    override func onCompleted() {
        forwardNext(.completed)
        forwardCompleted()
        dispose()
    }
}
