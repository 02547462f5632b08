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
        Concat(sources: sequence, count: nil)
    }

    /// The elements of each sequence of `collection` in turn: the next one is subscribed
    /// to when the previous one completes. The first error ends it; it completes after the
    /// last one.
    public static func concat<Collection: Swift.Collection>(_ collection: Collection) -> Observable<Element>
        where Collection.Element == Observable<Element> {
        Concat(sources: collection, count: collection.count)
    }

    /// The elements of each of `sources` in turn: the next one is subscribed to when the
    /// previous one completes. The first error ends it; it completes after the last one.
    public static func concat(_ sources: Observable<Element>...) -> Observable<Element> {
        Concat(sources: sources, count: sources.count)
    }
}

extension ObservableType where Element: ObservableConvertibleType {
    /// The elements of each inner sequence in turn, each subscribed to once the previous
    /// one has completed (the others wait in order); `merge(maxConcurrent: 1)`.
    public func concat() -> Observable<Element.Element> {
        merge(maxConcurrent: 1)
    }
}

#if TRACE_RESOURCES
/// The deepest stack of nested `concat` source iterators one subscription has held (RxSwift's
/// counter of its tail-recursive sink, which its tests reset and read).
nonisolated(unsafe) public var maxTailRecursiveSinkStackSize = 0
#endif

/// A concat of a known or unknown number of sources. A concat whose sources include another
/// concat iterates the nested one's sources in place instead of subscribing to it.
class ConcatProducer<Element>: Producer<Element> {
    /// A fresh iterator over the sources and how many there are, when known.
    func makeSources() -> ConcatSources<Element> {
        rxAbstractMethod()
    }
}

/// One level of a concat's stack of source iterators.
struct ConcatSources<Element> {
    var iterator: AnyIterator<Observable<Element>>
    /// Sources not yet taken, when the count is known (a collection); `nil` for a sequence.
    var remaining: Int?
}

private final class Concat<Sources: Sequence, Element>: ConcatProducer<Element> where Sources.Element == Observable<Element> {
    private let sources: Sources
    private let count: Int?

    init(sources: Sources, count: Int?) {
        self.sources = sources
        self.count = count
    }

    override func makeSources() -> ConcatSources<Element> {
        ConcatSources(iterator: AnyIterator(sources.makeIterator()), remaining: count)
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = ConcatSink<Element>(sources: makeSources(), observer: observer, cancel: cancel)
        let subscription = sink.run()
        return (sink, subscription)
    }
}

/// Observes the current source itself; on its completion moves to the next one.
///
/// Moving on is trampolined (like RxSwift's `TailRecursiveSink`): a source that completes
/// synchronously while being subscribed to only flags another step, which the loop already
/// running takes after `subscribe` returns, so a long chain of synchronous sources does not
/// grow the stack. A nested concat is not subscribed to: its sources are pushed on `stack`
/// and iterated in place; when the nested one is the last of a collection, the collection's
/// level is popped first (a tail call), so `[a, [b, [c, …]].concat()].concat()` keeps one
/// level. The stack is touched only by whoever runs the loop.
private final class ConcatSink<Element>: Sink<Element, Element> {
    private let gate = Lock.make()
    private var running = false
    private var pendingStep = false
    private var stack: [ConcatSources<Element>]
    private let current = SerialDisposable()

    init(sources: ConcatSources<Element>, observer: ObserverNode<Element>, cancel: Cancelable) {
        self.stack = [sources]
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
        while true {
            if isDisposed { return }
            guard let top = stack.last else {
                forwardCompleted()
                dispose()
                return
            }
            guard let next = top.iterator.next() else {
                stack.removeLast()
                continue
            }
            if let remaining = top.remaining {
                if remaining > 1 {
                    stack[stack.count - 1].remaining = remaining - 1
                } else {
                    stack.removeLast()
                }
            }
            if let nested = next as? ConcatProducer<Element> {
                stack.append(nested.makeSources())
                #if TRACE_RESOURCES
                if maxTailRecursiveSinkStackSize < stack.count {
                    maxTailRecursiveSinkStackSize = stack.count
                }
                #endif
                continue
            }
            let subscription = SingleAssignmentDisposable()
            // Replacing it disposes the previous (completed) source's subscription.
            current.disposable = subscription
            subscription.setDisposable(next.subscribe(node: self))
            return
        }
    }
}
