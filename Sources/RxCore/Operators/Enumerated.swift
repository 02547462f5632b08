extension ObservableType {
    /// Pairs each element with its index, counted from 0. An index overflow ends the
    /// sequence with `RxError.overflow`.
    public func enumerated() -> Observable<(index: Int, element: Element)> {
        Enumerated(source: asObservable())
    }
}

private final class Enumerated<Element>: Producer<(index: Int, element: Element)> {
    private let source: Observable<Element>

    init(source: Observable<Element>) {
        self.source = source
    }

    override func run(_ observer: ObserverNode<(index: Int, element: Element)>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = EnumeratedSink(observer: observer, cancel: cancel)
        let subscription = source.subscribe(node: sink)
        return (sink, subscription)
    }
}

private final class EnumeratedSink<Element>: Sink<Element, (index: Int, element: Element)> {
    private var index = 0

    override func onNext(_ element: Element) {
        let current = index
        let (next, overflow) = current.addingReportingOverflow(1)
        if overflow {
            forwardError(RxError.overflow)
            dispose()
            return
        }
        index = next
        forwardNext((index: current, element: element))
    }
}
