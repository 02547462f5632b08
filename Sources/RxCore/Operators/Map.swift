extension ObservableType {
    /// Transforms each element; a throwing transform ends the sequence with its error.
    public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Observable<Result> {
        Map(source: asObservable(), transform: transform)
    }
}

private final class Map<Source, Result>: Producer<Result> {
    private let source: Observable<Source>
    private let transform: (Source) throws -> Result

    init(source: Observable<Source>, transform: @escaping (Source) throws -> Result) {
        self.source = source
        self.transform = transform
    }

    override func run(_ observer: ObserverNode<Result>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = MapSink(transform: transform, observer: observer, cancel: cancel)
        let subscription = source.subscribe(node: sink)
        return (sink, subscription)
    }
}

private final class MapSink<Source, Result>: Sink<Source, Result> {
    private let transform: (Source) throws -> Result

    init(transform: @escaping (Source) throws -> Result, observer: ObserverNode<Result>, cancel: Cancelable) {
        self.transform = transform
        super.init(observer: observer, cancel: cancel)
    }

    override func onNext(_ element: Source) {
        let result: Result
        do {
            result = try transform(element)
        } catch {
            forwardError(error)
            dispose()
            return
        }
        forwardNext(result)
    }
}
