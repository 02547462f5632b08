extension ObservableType {
    /// Drops every element and passes on only the terminal event.
    public func ignoreElements() -> Observable<Never> {
        IgnoreElements(source: asObservable())
    }
}

private final class IgnoreElements<Element>: Producer<Never> {
    private let source: Observable<Element>

    init(source: Observable<Element>) {
        self.source = source
    }

    override func run(_ observer: ObserverNode<Never>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = IgnoreElementsSink<Element>(observer: observer, cancel: cancel)
        let subscription = source.subscribe(node: sink)
        return (sink, subscription)
    }
}

private final class IgnoreElementsSink<Element>: Sink<Element, Never> {
    override func onNext(_ element: Element) {}
}
