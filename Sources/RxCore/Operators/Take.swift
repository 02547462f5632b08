extension ObservableType {
    /// The first `count` elements: completes, and disposes the source, right after the
    /// `count`-th. `take(0)` completes at once without subscribing to the source. A
    /// negative count is a programmer error and traps.
    public func take(_ count: Int) -> Observable<Element> {
        precondition(count >= 0, "take: count can't be negative")
        if count == 0 {
            return Observable.empty()
        }
        return TakeCount(source: asObservable(), count: count)
    }
}

private final class TakeCount<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let count: Int

    init(source: Observable<Element>, count: Int) {
        self.source = source
        self.count = count
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = TakeCountSink(count: count, observer: observer, cancel: cancel)
        let subscription = source.subscribe(node: sink)
        return (sink, subscription)
    }
}

private final class TakeCountSink<Element>: Sink<Element, Element> {
    private var remaining: Int

    init(count: Int, observer: ObserverNode<Element>, cancel: Cancelable) {
        self.remaining = count
        super.init(observer: observer, cancel: cancel)
    }

    override func onNext(_ element: Element) {
        guard remaining > 0 else { return }
        remaining -= 1
        forwardNext(element)
        if remaining == 0 {
            forwardCompleted()
            dispose()
        }
    }
}
