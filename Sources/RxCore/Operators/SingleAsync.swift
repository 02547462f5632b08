extension ObservableType {
    /// The source's only element, forwarded as it arrives; a second element ends the
    /// sequence with `RxError.moreThanOneElement`, and completing without one with
    /// `RxError.noElements`.
    public func single() -> Observable<Element> {
        SingleAsync(source: asObservable(), predicate: nil)
    }

    /// The only element that satisfies `predicate`, forwarded as it arrives; a second
    /// match ends the sequence with `RxError.moreThanOneElement`, completing without a
    /// match with `RxError.noElements`, and a throwing predicate with its error.
    public func single(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        SingleAsync(source: asObservable(), predicate: predicate)
    }
}

private final class SingleAsync<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let predicate: ((Element) throws -> Bool)?

    init(source: Observable<Element>, predicate: ((Element) throws -> Bool)?) {
        self.source = source
        self.predicate = predicate
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = SingleAsyncSink(predicate: predicate, observer: observer, cancel: cancel)
        let subscription = source.subscribe(node: sink)
        return (sink, subscription)
    }
}

private final class SingleAsyncSink<Element>: Sink<Element, Element> {
    private let predicate: ((Element) throws -> Bool)?
    private var seenValue = false

    init(predicate: ((Element) throws -> Bool)?, observer: ObserverNode<Element>, cancel: Cancelable) {
        self.predicate = predicate
        super.init(observer: observer, cancel: cancel)
    }

    override func onNext(_ element: Element) {
        do {
            if let predicate, try !predicate(element) { return }
        } catch {
            forwardError(error)
            dispose()
            return
        }
        if seenValue {
            forwardError(RxError.moreThanOneElement)
            dispose()
            return
        }
        seenValue = true
        forwardNext(element)
    }

    override func onCompleted() {
        if seenValue {
            forwardCompleted()
        } else {
            forwardError(RxError.noElements)
        }
        dispose()
    }
}
