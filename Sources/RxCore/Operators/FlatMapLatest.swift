extension ObservableType {
    /// Maps each element to an inner sequence and forwards the elements of the latest one
    /// only: each new element disposes the previous inner subscription (`map` +
    /// `switchLatest`).
    ///
    /// Completes when the source and the current inner sequence have completed; the first
    /// error of the source or the current inner sequence, or a throwing selector, ends it.
    public func flatMapLatest<Source: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Source) -> Observable<Source.Element> {
        FlatMapLatest(source: asObservable(), selector: selector)
    }
}

private final class FlatMapLatest<SourceElement, Inner: ObservableConvertibleType>: Producer<Inner.Element> {
    private let source: Observable<SourceElement>
    private let selector: (SourceElement) throws -> Inner

    init(source: Observable<SourceElement>, selector: @escaping (SourceElement) throws -> Inner) {
        self.source = source
        self.selector = selector
    }

    override func run(_ observer: ObserverNode<Inner.Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = FlatMapLatestSink(selector: selector, observer: observer, cancel: cancel)
        let subscription = sink.run(source)
        return (sink, subscription)
    }
}

private final class FlatMapLatestSink<SourceElement, Inner: ObservableConvertibleType>: SwitchSink<SourceElement, Inner> {
    private let selector: (SourceElement) throws -> Inner

    init(selector: @escaping (SourceElement) throws -> Inner, observer: ObserverNode<Inner.Element>, cancel: Cancelable) {
        self.selector = selector
        super.init(observer: observer, cancel: cancel)
    }

    override func performMap(_ element: SourceElement) throws -> Inner {
        try selector(element)
    }
}
