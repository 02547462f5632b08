extension ObservableType {
    /// Drops the first `count` elements and sends the rest.
    public func skip(_ count: Int) -> Observable<Element> {
        SkipCount(source: asObservable(), count: count)
    }
}

private final class SkipCount<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let count: Int

    init(source: Observable<Element>, count: Int) {
        self.source = source
        self.count = count
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = SkipCountSink(count: count, observer: observer, cancel: cancel)
        let subscription = source.subscribe(node: sink)
        return (sink, subscription)
    }
}

private final class SkipCountSink<Element>: Sink<Element, Element> {
    private var remaining: Int

    init(count: Int, observer: ObserverNode<Element>, cancel: Cancelable) {
        self.remaining = count
        super.init(observer: observer, cancel: cancel)
    }

    override func onNext(_ element: Element) {
        if remaining > 0 {
            remaining -= 1
            return
        }
        forwardNext(element)
    }
}
