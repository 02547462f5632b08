extension ObservableType {
    /// On completion, sends `mapResult` of the accumulation of every element (starting
    /// from `seed`), then completes. A throwing `accumulator` or `mapResult` ends the
    /// sequence with its error.
    public func reduce<Accumulate, Result>(
        _ seed: Accumulate,
        accumulator: @escaping (Accumulate, Element) throws -> Accumulate,
        mapResult: @escaping (Accumulate) throws -> Result
    ) -> Observable<Result> {
        Reduce(source: asObservable(), seed: seed, accumulator: accumulator, mapResult: mapResult)
    }

    /// On completion, sends the accumulation of every element (starting from `seed`),
    /// then completes. A throwing `accumulator` ends the sequence with its error.
    public func reduce<Accumulate>(_ seed: Accumulate, accumulator: @escaping (Accumulate, Element) throws -> Accumulate) -> Observable<Accumulate> {
        Reduce(source: asObservable(), seed: seed, accumulator: accumulator, mapResult: { $0 })
    }
}

private final class Reduce<Element, Accumulate, Result>: Producer<Result> {
    private let source: Observable<Element>
    private let seed: Accumulate
    private let accumulator: (Accumulate, Element) throws -> Accumulate
    private let mapResult: (Accumulate) throws -> Result

    init(source: Observable<Element>, seed: Accumulate, accumulator: @escaping (Accumulate, Element) throws -> Accumulate, mapResult: @escaping (Accumulate) throws -> Result) {
        self.source = source
        self.seed = seed
        self.accumulator = accumulator
        self.mapResult = mapResult
    }

    override func run(_ observer: ObserverNode<Result>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = ReduceSink(seed: seed, accumulator: accumulator, mapResult: mapResult, observer: observer, cancel: cancel)
        let subscription = source.subscribe(node: sink)
        return (sink, subscription)
    }
}

private final class ReduceSink<Element, Accumulate, Result>: Sink<Element, Result> {
    private var accumulation: Accumulate
    private let accumulator: (Accumulate, Element) throws -> Accumulate
    private let mapResult: (Accumulate) throws -> Result

    init(seed: Accumulate, accumulator: @escaping (Accumulate, Element) throws -> Accumulate, mapResult: @escaping (Accumulate) throws -> Result, observer: ObserverNode<Result>, cancel: Cancelable) {
        self.accumulation = seed
        self.accumulator = accumulator
        self.mapResult = mapResult
        super.init(observer: observer, cancel: cancel)
    }

    override func onNext(_ element: Element) {
        do {
            accumulation = try accumulator(accumulation, element)
        } catch {
            forwardError(error)
            dispose()
        }
    }

    override func onCompleted() {
        let result: Result
        do {
            result = try mapResult(accumulation)
        } catch {
            forwardError(error)
            dispose()
            return
        }
        forwardNext(result)
        forwardCompleted()
        dispose()
    }
}
