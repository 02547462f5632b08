extension ObservableType {
    /// Fails with ``RxError/timeout`` when the first element, or any later one, takes
    /// longer than `dueTime` (counted from subscription, then from the previous element).
    public func timeout(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        Timeout(source: asObservable(), dueTime: dueTime, other: nil, scheduler: scheduler)
    }

    /// Like ``timeout(_:scheduler:)``, but on a timeout switches to `other` instead of
    /// failing.
    public func timeout<Source: ObservableConvertibleType>(_ dueTime: RxTimeInterval, other: Source, scheduler: SchedulerType) -> Observable<Element>
    where Element == Source.Element {
        Timeout(source: asObservable(), dueTime: dueTime, other: other.asObservable(), scheduler: scheduler)
    }
}

private final class Timeout<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let dueTime: RxTimeInterval
    private let other: Observable<Element>?
    private let scheduler: SchedulerType

    init(source: Observable<Element>, dueTime: RxTimeInterval, other: Observable<Element>?, scheduler: SchedulerType) {
        self.source = source
        self.dueTime = dueTime
        self.other = other
        self.scheduler = scheduler
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = TimeoutSink(dueTime: dueTime, other: other, scheduler: scheduler, observer: observer, cancel: cancel)
        let original = SingleAssignmentDisposable()
        sink.subscription.disposable = original
        // The timer starts before subscribing, as in RxSwift: a source that emits
        // synchronously restarts it.
        sink.startTimer()
        original.setDisposable(source.subscribe(node: sink))
        return (sink, Disposables.create(sink.subscription, sink.timer))
    }
}

/// Each source event bumps `generation`; a timer that fires with an older generation
/// lost the race and does nothing. Once the timer wins (`switched`), the source's events
/// are ignored.
private final class TimeoutSink<Element>: Sink<Element, Element> {
    let timer = SerialDisposable()
    /// The source subscription, replaced by the `other` subscription on a timeout.
    let subscription = SerialDisposable()
    private let dueTime: RxTimeInterval
    private let other: Observable<Element>?
    private let scheduler: SchedulerType
    private let lock = Lock.make()

    // Guarded by `lock`.
    private var generation = 0
    private var switched = false

    init(dueTime: RxTimeInterval, other: Observable<Element>?, scheduler: SchedulerType, observer: ObserverNode<Element>, cancel: Cancelable) {
        self.dueTime = dueTime
        self.other = other
        self.scheduler = scheduler
        super.init(observer: observer, cancel: cancel)
    }

    override func onNext(_ element: Element) {
        guard sourceEventWins() else { return }
        forwardNext(element)
        startTimer()
    }

    override func onError(_ error: Swift.Error) {
        guard sourceEventWins() else { return }
        forwardError(error)
        dispose()
    }

    override func onCompleted() {
        guard sourceEventWins() else { return }
        forwardCompleted()
        dispose()
    }

    private func sourceEventWins() -> Bool {
        lock.performLocked {
            if switched { return false }
            generation &+= 1
            return true
        }
    }

    func startTimer() {
        if timer.isDisposed { return }
        let current = lock.performLocked { generation }
        let next = SingleAssignmentDisposable()
        timer.disposable = next
        next.setDisposable(scheduler.scheduleRelative(current, dueTime: dueTime) { firedGeneration in
            self.timerFired(firedGeneration)
            return Disposables.create()
        })
    }

    private func timerFired(_ firedGeneration: Int) {
        let wins: Bool = lock.performLocked {
            switched = firedGeneration == generation
            return switched
        }
        guard wins else { return }
        if let other {
            subscription.disposable = other.subscribe(node: TimeoutOtherObserver(self))
        } else {
            subscription.dispose()
            forwardError(RxError.timeout)
            dispose()
        }
    }

    fileprivate func forwardFromOther(next element: Element) { forwardNext(element) }
    fileprivate func forwardFromOther(error: Swift.Error) { forwardError(error); dispose() }
    fileprivate func forwardFromOther(completed: Void) { forwardCompleted(); dispose() }
}

/// Passes the fallback sequence's events through after a timeout.
private final class TimeoutOtherObserver<Element>: ObserverNode<Element> {
    private let sink: TimeoutSink<Element>

    init(_ sink: TimeoutSink<Element>) {
        self.sink = sink
    }

    override func onNext(_ element: Element) { sink.forwardFromOther(next: element) }
    override func onError(_ error: Swift.Error) { sink.forwardFromOther(error: error) }
    override func onCompleted() { sink.forwardFromOther(completed: ()) }
}
