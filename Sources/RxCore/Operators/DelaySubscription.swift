extension ObservableType {
    /// Subscribes to the source only after `dueTime`; its events then pass unchanged.
    public func delaySubscription(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        DelaySubscription(source: asObservable(), dueTime: dueTime, scheduler: scheduler)
    }
}

private final class DelaySubscription<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let dueTime: RxTimeInterval
    private let scheduler: SchedulerType

    init(source: Observable<Element>, dueTime: RxTimeInterval, scheduler: SchedulerType) {
        self.source = source
        self.dueTime = dueTime
        self.scheduler = scheduler
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = DelaySubscriptionSink(observer: observer, cancel: cancel)
        // Disposing before the due time cancels the timer; after it, the scheduled item
        // holds (and disposes) the source subscription the action returned.
        let subscription = scheduler.scheduleRelative(sink, dueTime: dueTime) { [source] sink in
            source.subscribe(node: sink)
        }
        return (sink, subscription)
    }
}

private final class DelaySubscriptionSink<Element>: Sink<Element, Element> {
    override func onNext(_ element: Element) {
        forwardNext(element)
    }
}
