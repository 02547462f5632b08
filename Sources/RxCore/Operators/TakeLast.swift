extension ObservableType {
    /// The last `count` elements, sent when the source completes; an error is forwarded at
    /// once and the buffered elements are dropped. A negative count traps.
    public func takeLast(_ count: Int) -> Observable<Element> {
        precondition(count >= 0, "takeLast: count can't be negative")
        return TakeLast(source: asObservable(), count: count)
    }
}

private final class TakeLast<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let count: Int

    init(source: Observable<Element>, count: Int) {
        self.source = source
        self.count = count
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = TakeLastSink(count: count, observer: observer, cancel: cancel)
        let subscription = source.subscribe(node: sink)
        return (sink, subscription)
    }
}

private final class TakeLastSink<Element>: Sink<Element, Element> {
    private let count: Int
    private let buffer = RingBuffer<Element>()

    init(count: Int, observer: ObserverNode<Element>, cancel: Cancelable) {
        self.count = count
        super.init(observer: observer, cancel: cancel)
    }

    override func onNext(_ element: Element) {
        if count == 0 { return }
        buffer.enqueue(element)
        if buffer.count > count {
            _ = buffer.dequeue()
        }
    }

    override func onCompleted() {
        while let element = buffer.dequeue() {
            forwardNext(element)
        }
        forwardCompleted()
        dispose()
    }
}
