extension ObservableType {
    /// This sequence, or `default` followed by `completed` when it completes without any
    /// element.
    public func ifEmpty(default: Element) -> Observable<Element> {
        DefaultIfEmpty(source: asObservable(), default: `default`)
    }
}

private final class DefaultIfEmpty<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let defaultElement: Element

    init(source: Observable<Element>, default: Element) {
        self.source = source
        self.defaultElement = `default`
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = DefaultIfEmptySink(default: defaultElement, observer: observer, cancel: cancel)
        let subscription = source.subscribe(node: sink)
        return (sink, subscription)
    }
}

private final class DefaultIfEmptySink<Element>: Sink<Element, Element> {
    private let defaultElement: Element
    private var isEmpty = true

    init(default: Element, observer: ObserverNode<Element>, cancel: Cancelable) {
        self.defaultElement = `default`
        super.init(observer: observer, cancel: cancel)
    }

    override func onNext(_ element: Element) {
        isEmpty = false
        forwardNext(element)
    }

    override func onCompleted() {
        if isEmpty {
            forwardNext(defaultElement)
        }
        forwardCompleted()
        dispose()
    }
}
