extension ObservableType {
    /// `element`, over and over, without end, sent on `scheduler`. Pair it with `take`.
    public static func repeatElement(_ element: Element, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element> {
        RepeatElement(element: element, scheduler: scheduler)
    }
}

private final class RepeatElement<Element>: Producer<Element> {
    private let element: Element
    private let scheduler: ImmediateSchedulerType

    init(element: Element, scheduler: ImmediateSchedulerType) {
        self.element = element
        self.scheduler = scheduler
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = RepeatElementSink<Element>(observer: observer, cancel: cancel)
        let element = self.element
        // A `Void` state keeps the recursion specialised; the element is captured.
        let subscription = scheduler.scheduleRecursive(()) { _, recurse in
            sink.forwardNext(element)
            recurse(())
        }
        return (sink, subscription)
    }
}

private final class RepeatElementSink<Element>: Sink<Never, Element> {}
