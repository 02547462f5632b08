extension ObservableType {
    /// Emits an element only once `dueTime` has passed without another one; each element
    /// restarts the timer. Completion emits the pending element, then completes; an error
    /// drops it.
    public func debounce(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        Debounce(source: asObservable(), dueTime: dueTime, scheduler: scheduler)
    }
}

private final class Debounce<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let dueTime: RxTimeInterval
    private let scheduler: SchedulerType

    init(source: Observable<Element>, dueTime: RxTimeInterval, scheduler: SchedulerType) {
        self.source = source
        self.dueTime = dueTime
        self.scheduler = scheduler
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = DebounceSink(dueTime: dueTime, scheduler: scheduler, observer: observer, cancel: cancel)
        let subscription = source.subscribe(node: sink)
        return (sink, Disposables.create(subscription, sink.timer))
    }
}

/// Source events and timer callbacks arrive on different threads; the lock serialises
/// them and the events they forward. It is recursive because forwarding may re-enter
/// (a downstream subscriber that feeds the source synchronously).
private final class DebounceSink<Element>: Sink<Element, Element> {
    let timer = SerialDisposable()
    private let dueTime: RxTimeInterval
    private let scheduler: SchedulerType
    private let lock = Lock.make(recursive: true)

    // Guarded by `lock`.
    private var generation: UInt64 = 0
    private var pending: Element?

    init(dueTime: RxTimeInterval, scheduler: SchedulerType, observer: ObserverNode<Element>, cancel: Cancelable) {
        self.dueTime = dueTime
        self.scheduler = scheduler
        super.init(observer: observer, cancel: cancel)
    }

    override func onNext(_ element: Element) {
        lock.lock(); defer { lock.unlock() }
        generation &+= 1
        let current = generation
        pending = element
        // Replacing the serial disposable cancels the previous element's timer.
        let next = SingleAssignmentDisposable()
        timer.disposable = next
        // The timer holds the sink strongly: a subscription whose disposable was dropped
        // must still deliver, and disposing cancels the timer, which releases it.
        next.setDisposable(scheduler.scheduleRelative(current, dueTime: dueTime) { generation in
            self.timerFired(generation)
            return Disposables.create()
        })
    }

    override func onError(_ error: Swift.Error) {
        lock.lock(); defer { lock.unlock() }
        pending = nil
        forwardError(error)
        dispose()
    }

    override func onCompleted() {
        lock.lock(); defer { lock.unlock() }
        if let element = pending {
            pending = nil
            forwardNext(element)
        }
        forwardCompleted()
        dispose()
    }

    private func timerFired(_ firedGeneration: UInt64) {
        lock.lock(); defer { lock.unlock() }
        // A timer that lost the race with a newer element (or was already flushed) is stale.
        guard firedGeneration == generation, let element = pending else { return }
        pending = nil
        forwardNext(element)
    }
}
