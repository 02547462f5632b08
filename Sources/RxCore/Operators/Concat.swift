extension ObservableType {
    /// The elements of this sequence, then, once it has completed, those of `second`.
    /// An error of either ends it.
    public func concat<Source: ObservableConvertibleType>(_ second: Source) -> Observable<Element> where Source.Element == Element {
        Observable.concat([asObservable(), second.asObservable()])
    }

    /// The elements of each sequence of `sequence` in turn: the next one is subscribed to
    /// when the previous one completes. The first error ends it; it completes after the
    /// last one. The sequence is iterated lazily, one step per completed source.
    public static func concat<Sequence: Swift.Sequence>(_ sequence: Sequence) -> Observable<Element>
        where Sequence.Element == Observable<Element> {
        Concat(sources: sequence)
    }

    /// The elements of each sequence of `collection` in turn: the next one is subscribed
    /// to when the previous one completes. The first error ends it; it completes after the
    /// last one.
    public static func concat<Collection: Swift.Collection>(_ collection: Collection) -> Observable<Element>
        where Collection.Element == Observable<Element> {
        Concat(sources: collection)
    }

    /// The elements of each of `sources` in turn: the next one is subscribed to when the
    /// previous one completes. The first error ends it; it completes after the last one.
    public static func concat(_ sources: Observable<Element>...) -> Observable<Element> {
        Concat(sources: sources)
    }
}

extension ObservableType where Element: ObservableConvertibleType {
    /// The elements of each inner sequence in turn, each subscribed to once the previous
    /// one has completed (the others wait in order); `merge(maxConcurrent: 1)`.
    public func concat() -> Observable<Element.Element> {
        merge(maxConcurrent: 1)
    }
}

private final class Concat<Sources: Sequence, Element>: Producer<Element> where Sources.Element == Observable<Element> {
    private let sources: Sources

    init(sources: Sources) {
        self.sources = sources
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = ConcatSink<Sources, Element>(iterator: sources.makeIterator(), observer: observer, cancel: cancel)
        let subscription = sink.run()
        return (sink, subscription)
    }
}

/// Observes the current source itself; on its completion moves to the next one.
///
/// Moving on is trampolined (like RxSwift's `TailRecursiveSink`): a source that completes
/// synchronously while being subscribed to only flags another step, which the loop already
/// running takes after `subscribe` returns, so a long chain of synchronous sources does not
/// grow the stack. The iterator is touched only by whoever runs the loop.
private final class ConcatSink<Sources: Sequence, Element>: Sink<Element, Element> where Sources.Element == Observable<Element> {
    private let gate = Lock.make()
    private var running = false
    private var pendingStep = false
    private var iterator: Sources.Iterator
    private let current = SerialDisposable()

    init(iterator: Sources.Iterator, observer: ObserverNode<Element>, cancel: Cancelable) {
        self.iterator = iterator
        super.init(observer: observer, cancel: cancel)
    }

    func run() -> Disposable {
        moveNext()
        return current
    }

    override func onNext(_ element: Element) {
        forwardNext(element)
    }

    override func onCompleted() {
        moveNext()
    }

    private func moveNext() {
        gate.lock()
        if running {
            pendingStep = true
            gate.unlock()
            return
        }
        running = true
        gate.unlock()
        while true {
            step()
            gate.lock()
            if !pendingStep {
                running = false
                gate.unlock()
                return
            }
            pendingStep = false
            gate.unlock()
        }
    }

    private func step() {
        if isDisposed { return }
        guard let next = iterator.next() else {
            forwardCompleted()
            dispose()
            return
        }
        let subscription = SingleAssignmentDisposable()
        // Replacing it disposes the previous (completed) source's subscription.
        current.disposable = subscription
        subscription.setDisposable(next.subscribe(node: self))
    }
}
