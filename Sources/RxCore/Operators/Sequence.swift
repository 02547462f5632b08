extension ObservableType {
    /// A sequence of the given elements, then `completed`, sent on `scheduler`.
    ///
    /// With the default current-thread scheduler, the elements are sent from the
    /// trampoline: synchronously inside a top-level `subscribe`, interleaved step by step
    /// with other trampolined work (as in RxSwift).
    public static func of(_ elements: Element..., scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element> {
        ObservableArray(elements: elements, scheduler: scheduler)
    }

    /// The elements of `array`, then `completed`, sent on `scheduler`.
    public static func from(_ array: [Element], scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element> {
        ObservableArray(elements: array, scheduler: scheduler)
    }

    /// The elements of `sequence`, then `completed`, sent on `scheduler`. The sequence is
    /// iterated afresh for each subscription.
    public static func from<Sequence: Swift.Sequence>(_ sequence: Sequence, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element> where Sequence.Element == Element {
        ObservableSequence(elements: sequence, scheduler: scheduler)
    }
}

// Both producers recurse on a concrete state (an index, or nothing, with the iterator in
// the sink), so the recursion is specialised: a generic state would be copied through
// value witnesses at every step.

private final class ObservableArray<Element>: Producer<Element> {
    private let elements: [Element]
    private let scheduler: ImmediateSchedulerType

    init(elements: [Element], scheduler: ImmediateSchedulerType) {
        self.elements = elements
        self.scheduler = scheduler
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = ObservableArraySink<Element>(observer: observer, cancel: cancel)
        let elements = self.elements
        let subscription = scheduler.scheduleRecursive(0) { index, recurse in
            if index < elements.count {
                sink.forwardNext(elements[index])
                recurse(index + 1)
            } else {
                sink.forwardCompleted()
                sink.dispose()
            }
        }
        return (sink, subscription)
    }
}

private final class ObservableArraySink<Element>: Sink<Never, Element> {}

private final class ObservableSequence<Elements: Sequence>: Producer<Elements.Element> {
    private let elements: Elements
    private let scheduler: ImmediateSchedulerType

    init(elements: Elements, scheduler: ImmediateSchedulerType) {
        self.elements = elements
        self.scheduler = scheduler
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = ObservableSequenceSink(iterator: elements.makeIterator(), observer: observer, cancel: cancel)
        let subscription = scheduler.scheduleRecursive(()) { _, recurse in
            if let element = sink.iterator.next() {
                sink.forwardNext(element)
                recurse(())
            } else {
                sink.forwardCompleted()
                sink.dispose()
            }
        }
        return (sink, subscription)
    }
}

/// Holds the iterator; only the recursion's steps, which run one at a time, touch it.
private final class ObservableSequenceSink<Iterator: IteratorProtocol>: Sink<Never, Iterator.Element> {
    var iterator: Iterator

    init(iterator: Iterator, observer: ObserverNode<Iterator.Element>, cancel: Cancelable) {
        self.iterator = iterator
        super.init(observer: observer, cancel: cancel)
    }
}
