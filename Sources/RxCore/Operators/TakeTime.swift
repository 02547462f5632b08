extension ObservableType {
    /// The elements sent during `duration` from subscription, then `completed` (and the
    /// source is disposed) when it has elapsed on `scheduler`.
    public func take(for duration: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        TakeTime(source: asObservable(), duration: duration, scheduler: scheduler)
    }

    /// Renamed `take(for:scheduler:)` in RxSwift 6.
    @available(*, deprecated, renamed: "take(for:scheduler:)")
    public func take(_ duration: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        take(for: duration, scheduler: scheduler)
    }
}

private final class TakeTime<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let duration: RxTimeInterval
    private let scheduler: SchedulerType

    init(source: Observable<Element>, duration: RxTimeInterval, scheduler: SchedulerType) {
        self.source = source
        self.duration = duration
        self.scheduler = scheduler
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = TakeTimeSink(observer: observer, cancel: cancel)
        let timer = scheduler.scheduleRelative((), dueTime: duration) { _ in
            sink.tick()
            return Disposables.create()
        }
        let subscription = source.subscribe(node: sink)
        return (sink, Disposables.create(timer, subscription))
    }
}

/// The timer and the source may run on different threads: events go through one lock.
private final class TakeTimeSink<Element>: Sink<Element, Element> {
    private let lock = Lock.make(recursive: true)

    func tick() {
        lock.lock()
        forwardCompleted()
        lock.unlock()
        dispose()
    }

    override func onNext(_ element: Element) {
        lock.lock()
        forwardNext(element)
        lock.unlock()
    }

    override func onError(_ error: Swift.Error) {
        lock.lock()
        forwardError(error)
        lock.unlock()
        dispose()
    }

    override func onCompleted() {
        lock.lock()
        forwardCompleted()
        lock.unlock()
        dispose()
    }
}
