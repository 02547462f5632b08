extension ObservableType {
    /// A sequence of the given elements, then `completed`, sent on `scheduler`.
    ///
    /// With the default current-thread scheduler, the elements are sent from the
    /// trampoline: synchronously inside a top-level `subscribe`, interleaved step by step
    /// with other trampolined work (as in RxSwift).
    public static func of(_ elements: Element..., scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element> {
        ObservableSequence(elements: elements, scheduler: scheduler)
    }

    /// The elements of `array`, then `completed`, sent on `scheduler`.
    public static func from(_ array: [Element], scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element> {
        ObservableSequence(elements: array, scheduler: scheduler)
    }

    /// The elements of `sequence`, then `completed`, sent on `scheduler`. The sequence is
    /// iterated afresh for each subscription.
    public static func from<Sequence: Swift.Sequence>(_ sequence: Sequence, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element> where Sequence.Element == Element {
        ObservableSequence(elements: sequence, scheduler: scheduler)
    }
}

private final class ObservableSequence<Elements: Sequence>: Producer<Elements.Element> {
    private let elements: Elements
    private let scheduler: ImmediateSchedulerType

    init(elements: Elements, scheduler: ImmediateSchedulerType) {
        self.elements = elements
        self.scheduler = scheduler
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = ObservableSequenceSink<Element>(observer: observer, cancel: cancel)
        let subscription = scheduler.scheduleRecursive(elements.makeIterator()) { iterator, recurse in
            var iterator = iterator
            if let element = iterator.next() {
                sink.forwardNext(element)
                recurse(iterator)
            } else {
                sink.forwardCompleted()
                sink.dispose()
            }
        }
        return (sink, subscription)
    }
}

private final class ObservableSequenceSink<Element>: Sink<Never, Element> {}
