extension ObservableType {
    /// A single of the first element (or `nil` when the source completes empty); it
    /// disposes the source once it has the element.
    public func first() -> Single<Element?> {
        Single(raw: First(source: asObservable()))
    }
}

private final class First<Element>: Producer<Element?> {
    private let source: Observable<Element>

    init(source: Observable<Element>) {
        self.source = source
    }

    override func run(_ observer: ObserverNode<Element?>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = FirstSink(observer: observer, cancel: cancel)
        let subscription = source.subscribe(node: sink)
        return (sink, subscription)
    }
}

private final class FirstSink<Element>: Sink<Element, Element?> {
    override func onNext(_ element: Element) {
        forwardNext(element)
        forwardCompleted()
        dispose()
    }

    override func onCompleted() {
        forwardNext(nil)
        forwardCompleted()
        dispose()
    }
}
