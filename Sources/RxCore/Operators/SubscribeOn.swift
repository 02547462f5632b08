extension ObservableType {
    /// Subscribes to the source, and later disposes that subscription, on `scheduler`.
    /// Events are not moved: they arrive wherever the source sends them (use
    /// `observe(on:)` for that).
    public func subscribe(on scheduler: ImmediateSchedulerType) -> Observable<Element> {
        SubscribeOn(source: self, scheduler: scheduler)
    }

    /// Renamed `subscribe(on:)` in RxSwift 6.
    @available(*, deprecated, renamed: "subscribe(on:)")
    public func subscribeOn(_ scheduler: ImmediateSchedulerType) -> Observable<Element> {
        subscribe(on: scheduler)
    }
}

/// Keeps the source as given rather than `asObservable()`: like RxSwift, it subscribes
/// whatever type it was handed, so a wrapper's own termination cannot dispose the source
/// subscription ahead of the scheduled disposal.
private final class SubscribeOn<Source: ObservableType>: Producer<Source.Element> {
    typealias Element = Source.Element

    private let source: Source
    private let scheduler: ImmediateSchedulerType

    init(source: Source, scheduler: ImmediateSchedulerType) {
        self.source = source
        self.scheduler = scheduler
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = SubscribeOnSink<Element>(observer: observer, cancel: cancel)
        // Until the scheduled subscription runs, disposing cancels it; afterwards it is
        // replaced by a disposable that disposes the source subscription on the scheduler.
        let everything = SerialDisposable()
        let pending = SingleAssignmentDisposable()
        everything.disposable = pending
        let scheduler = self.scheduler
        let source = self.source
        pending.setDisposable(scheduler.schedule(sink) { sink in
            let subscription: Disposable
            if let observable = source as? Observable<Element> {
                subscription = observable.subscribe(node: sink)
            } else {
                subscription = source.subscribe(sink)
            }
            everything.disposable = ScheduledDisposable(scheduler: scheduler, disposable: subscription)
            return Disposables.create()
        })
        return (sink, everything)
    }
}

private final class SubscribeOnSink<Element>: Sink<Element, Element> {
    override func onNext(_ element: Element) {
        forwardNext(element)
    }
}
