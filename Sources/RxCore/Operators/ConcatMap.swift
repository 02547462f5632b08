extension ObservableType {
    /// Maps each element to an inner sequence and concatenates them: each inner sequence
    /// is subscribed to once the previous one has completed (the mapped sequences wait in
    /// order meanwhile).
    ///
    /// Completes when the source and every inner sequence have completed; the first error,
    /// or a throwing selector, ends it.
    public func concatMap<Source: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Source) -> Observable<Source.Element> {
        ConcatMap(source: asObservable(), selector: selector)
    }
}

private final class ConcatMap<SourceElement, Inner: ObservableConvertibleType>: Producer<Inner.Element> {
    private let source: Observable<SourceElement>
    private let selector: (SourceElement) throws -> Inner

    init(source: Observable<SourceElement>, selector: @escaping (SourceElement) throws -> Inner) {
        self.source = source
        self.selector = selector
    }

    override func run(_ observer: ObserverNode<Inner.Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = ConcatMapSink(selector: selector, observer: observer, cancel: cancel)
        let subscription = sink.run(source)
        return (sink, subscription)
    }
}

private final class ConcatMapSink<SourceElement, Inner: ObservableConvertibleType>: MergeLimitedSink<SourceElement, Inner> {
    private let selector: (SourceElement) throws -> Inner

    init(selector: @escaping (SourceElement) throws -> Inner, observer: ObserverNode<Inner.Element>, cancel: Cancelable) {
        self.selector = selector
        super.init(maxConcurrent: 1, observer: observer, cancel: cancel)
    }

    override func performMap(_ element: SourceElement) throws -> Inner {
        try selector(element)
    }
}
