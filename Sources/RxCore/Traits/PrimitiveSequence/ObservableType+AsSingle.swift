extension ObservableType {
    /// The only element of this sequence as a single: an empty sequence fails with
    /// `RxError.noElements`, a second element with `RxError.moreThanOneElement` (at once).
    public func asSingle() -> Single<Element> {
        Single(raw: AsSingle(source: asObservable()))
    }
}

private final class AsSingle<Element>: Producer<Element> {
    private let source: Observable<Element>

    init(source: Observable<Element>) {
        self.source = source
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = AsSingleSink(observer: observer, cancel: cancel)
        return (sink, source.subscribe(node: sink))
    }
}

/// Holds the element until completion, so a second one can still fail the single.
private final class AsSingleSink<Element>: Sink<Element, Element> {
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
            forwardCompleted()
        } else {
            forwardError(RxError.noElements)
        }
        dispose()
    }
}
