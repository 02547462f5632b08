extension ObservableType {
    /// Sends only the element at `index` (counting from 0), then completes and disposes
    /// the source. A source that completes sooner ends the result with
    /// `RxError.argumentOutOfRange`. A negative index is a programmer error and traps.
    public func element(at index: Int) -> Observable<Element> {
        precondition(index >= 0, "element(at:): index can't be negative")
        return ElementAt(source: asObservable(), index: index)
    }

    /// Renamed `element(at:)` in RxSwift 6.
    @available(*, deprecated, renamed: "element(at:)")
    public func elementAt(_ index: Int) -> Observable<Element> {
        element(at: index)
    }
}

private final class ElementAt<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let index: Int

    init(source: Observable<Element>, index: Int) {
        self.source = source
        self.index = index
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = ElementAtSink(index: index, observer: observer, cancel: cancel)
        let subscription = source.subscribe(node: sink)
        return (sink, subscription)
    }
}

private final class ElementAtSink<Element>: Sink<Element, Element> {
    private var remaining: Int

    init(index: Int, observer: ObserverNode<Element>, cancel: Cancelable) {
        self.remaining = index
        super.init(observer: observer, cancel: cancel)
    }

    override func onNext(_ element: Element) {
        if remaining > 0 {
            remaining -= 1
            return
        }
        forwardNext(element)
        forwardCompleted()
        dispose()
    }

    override func onCompleted() {
        forwardError(RxError.argumentOutOfRange)
        dispose()
    }
}
