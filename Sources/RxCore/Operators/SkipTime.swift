import Synchronization

extension ObservableType {
    /// Drops the elements sent during `duration` from subscription (measured on
    /// `scheduler`); forwards the rest, and the termination whenever it comes.
    public func skip(_ duration: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        SkipTime(source: asObservable(), duration: duration, scheduler: scheduler)
    }
}

private final class SkipTime<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let duration: RxTimeInterval
    private let scheduler: SchedulerType

    init(source: Observable<Element>, duration: RxTimeInterval, scheduler: SchedulerType) {
        self.source = source
        self.duration = duration
        self.scheduler = scheduler
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = SkipTimeSink(observer: observer, cancel: cancel)
        let timer = scheduler.scheduleRelative((), dueTime: duration) { _ in
            sink.open.store(true, ordering: .releasing)
            return Disposables.create()
        }
        let subscription = source.subscribe(node: sink)
        return (sink, Disposables.create(timer, subscription))
    }
}

private final class SkipTimeSink<Element>: Sink<Element, Element> {
    /// Set by the timer, possibly on another thread.
    let open = Atomic<Bool>(false)

    override func onNext(_ element: Element) {
        if open.load(ordering: .acquiring) {
            forwardNext(element)
        }
    }
}
