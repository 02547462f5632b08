extension ObservableType {
    /// The only element of this sequence, if any, as a maybe: a second element fails it
    /// with `RxError.moreThanOneElement` (at once).
    public func asMaybe() -> Maybe<Element> {
        Maybe(raw: AsMaybe(source: asObservable()))
    }
}

private final class AsMaybe<Element>: Producer<Element> {
    private let source: Observable<Element>

    init(source: Observable<Element>) {
        self.source = source
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = AsMaybeSink(observer: observer, cancel: cancel)
        return (sink, source.subscribe(node: sink))
    }
}

/// Holds the element until completion, so a second one can still fail the maybe.
private final class AsMaybeSink<Element>: Sink<Element, Element> {
    /// Serial by the Rx grammar.
    private var element: Element?

    override func onNext(_ element: Element) {
        if isDisposed { return }
        if self.element != nil {
            forwardError(RxError.moreThanOneElement)
            dispose()
            return
        }
        self.element = element
    }

    override func onCompleted() {
        if let element = element.take() {
            forwardNext(element)
        }
        forwardCompleted()
        dispose()
    }
}
