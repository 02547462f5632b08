extension ObservableType {
    /// Maps each element to an inner sequence and merges the elements of all of them.
    ///
    /// Completes when the source and every inner sequence have completed; the first error,
    /// or a throwing selector, ends it.
    public func flatMap<Source: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Source) -> Observable<Source.Element> {
        FlatMap(source: asObservable(), selector: selector)
    }
}

private final class FlatMap<SourceElement, Inner: ObservableConvertibleType>: Producer<Inner.Element> {
    private let source: Observable<SourceElement>
    private let selector: (SourceElement) throws -> Inner

    init(source: Observable<SourceElement>, selector: @escaping (SourceElement) throws -> Inner) {
        self.source = source
        self.selector = selector
    }

    override func run(_ observer: ObserverNode<Inner.Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = FlatMapSink(selector: selector, observer: observer, cancel: cancel)
        let subscription = sink.run(source)
        return (sink, subscription)
    }
}

private final class FlatMapSink<SourceElement, Inner: ObservableConvertibleType>: MergeSink<SourceElement, Inner> {
    private let selector: (SourceElement) throws -> Inner

    init(selector: @escaping (SourceElement) throws -> Inner, observer: ObserverNode<Inner.Element>, cancel: Cancelable) {
        self.selector = selector
        super.init(observer: observer, cancel: cancel)
    }

    override func performMap(_ element: SourceElement) throws -> Inner {
        try selector(element)
    }
}
