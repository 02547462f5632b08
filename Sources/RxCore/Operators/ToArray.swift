extension ObservableType {
    /// A single of every element as one array, sent when the source completes; an error
    /// is forwarded and the elements dropped.
    public func toArray() -> Single<[Element]> {
        Single(raw: ToArray(source: asObservable()))
    }
}

private final class ToArray<Element>: Producer<[Element]> {
    private let source: Observable<Element>

    init(source: Observable<Element>) {
        self.source = source
    }

    override func run(_ observer: ObserverNode<[Element]>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = ToArraySink(observer: observer, cancel: cancel)
        let subscription = source.subscribe(node: sink)
        return (sink, subscription)
    }
}

private final class ToArraySink<Element>: Sink<Element, [Element]> {
    private var elements: [Element] = []

    override func onNext(_ element: Element) {
        elements.append(element)
    }

    override func onCompleted() {
        forwardNext(elements)
        forwardCompleted()
        dispose()
    }
}
