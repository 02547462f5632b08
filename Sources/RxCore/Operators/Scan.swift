extension ObservableType {
    /// Sends each accumulation: `accumulator` updates the accumulator in place with each
    /// element, starting from `seed` for every subscription. The seed itself is not sent;
    /// a throwing accumulator ends the sequence with its error.
    public func scan<Accumulate>(into seed: Accumulate, accumulator: @escaping (inout Accumulate, Element) throws -> Void) -> Observable<Accumulate> {
        Scan(source: asObservable(), seed: seed, accumulator: accumulator)
    }

    /// Sends each accumulation `accumulator(previous, element)`, starting from `seed` for
    /// every subscription. The seed itself is not sent; a throwing accumulator ends the
    /// sequence with its error.
    public func scan<Accumulate>(_ seed: Accumulate, accumulator: @escaping (Accumulate, Element) throws -> Accumulate) -> Observable<Accumulate> {
        Scan(source: asObservable(), seed: seed) { accumulate, element in
            accumulate = try accumulator(accumulate, element)
        }
    }
}

private final class Scan<Element, Accumulate>: Producer<Accumulate> {
    private let source: Observable<Element>
    private let seed: Accumulate
    private let accumulator: (inout Accumulate, Element) throws -> Void

    init(source: Observable<Element>, seed: Accumulate, accumulator: @escaping (inout Accumulate, Element) throws -> Void) {
        self.source = source
        self.seed = seed
        self.accumulator = accumulator
    }

    override func run(_ observer: ObserverNode<Accumulate>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = ScanSink(seed: seed, accumulator: accumulator, observer: observer, cancel: cancel)
        let subscription = source.subscribe(node: sink)
        return (sink, subscription)
    }
}

private final class ScanSink<Element, Accumulate>: Sink<Element, Accumulate> {
    private var accumulate: Accumulate
    private let accumulator: (inout Accumulate, Element) throws -> Void

    init(seed: Accumulate, accumulator: @escaping (inout Accumulate, Element) throws -> Void, observer: ObserverNode<Accumulate>, cancel: Cancelable) {
        self.accumulate = seed
        self.accumulator = accumulator
        super.init(observer: observer, cancel: cancel)
    }

    override func onNext(_ element: Element) {
        do {
            try accumulator(&accumulate, element)
        } catch {
            forwardError(error)
            dispose()
            return
        }
        forwardNext(accumulate)
    }
}
