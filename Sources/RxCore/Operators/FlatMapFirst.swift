extension ObservableType {
    /// Maps an element to an inner sequence and forwards its elements, ignoring source
    /// elements that arrive while an inner sequence is still running.
    ///
    /// Completes when the source and the running inner sequence have completed; the first
    /// error, or a throwing selector, ends it.
    public func flatMapFirst<Source: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Source) -> Observable<Source.Element> {
        FlatMapFirst(source: asObservable(), selector: selector)
    }
}

private final class FlatMapFirst<SourceElement, Inner: ObservableConvertibleType>: Producer<Inner.Element> {
    private let source: Observable<SourceElement>
    private let selector: (SourceElement) throws -> Inner

    init(source: Observable<SourceElement>, selector: @escaping (SourceElement) throws -> Inner) {
        self.source = source
        self.selector = selector
    }

    override func run(_ observer: ObserverNode<Inner.Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = FlatMapFirstSink(selector: selector, observer: observer, cancel: cancel)
        let subscription = sink.run(source)
        return (sink, subscription)
    }
}

private final class FlatMapFirstSink<SourceElement, Inner: ObservableConvertibleType>: MergeSink<SourceElement, Inner> {
    private let selector: (SourceElement) throws -> Inner

    init(selector: @escaping (SourceElement) throws -> Inner, observer: ObserverNode<Inner.Element>, cancel: Cancelable) {
        self.selector = selector
        super.init(observer: observer, cancel: cancel)
    }

    /// Only while nothing runs; the selector is not even called for dropped elements.
    override var subscribeNext: Bool { activeCount == 0 }

    override func performMap(_ element: SourceElement) throws -> Inner {
        try selector(element)
    }
}
