extension ObservableType {
    /// Emits the elements in arrays, each sent when it holds `count` elements or when
    /// `timeSpan` has passed since the previous one was sent, whichever comes first (so an
    /// array may be empty). Completion sends the current array, then completes; an error
    /// drops it.
    public func buffer(timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType) -> Observable<[Element]> {
        BufferTimeCount(source: asObservable(), timeSpan: timeSpan, count: count, scheduler: scheduler)
    }
}

private final class BufferTimeCount<Element>: Producer<[Element]> {
    private let source: Observable<Element>
    private let timeSpan: RxTimeInterval
    private let count: Int
    private let scheduler: SchedulerType

    init(source: Observable<Element>, timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType) {
        self.source = source
        self.timeSpan = timeSpan
        self.count = count
        self.scheduler = scheduler
    }

    override func run(_ observer: ObserverNode<[Element]>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = BufferTimeCountSink(timeSpan: timeSpan, count: count, scheduler: scheduler, observer: observer, cancel: cancel)
        sink.startTimer(forWindow: 0)
        let subscription = source.subscribe(node: sink)
        return (sink, Disposables.create(sink.timer, subscription))
    }
}

/// The lock serialises source events, the timer and what they forward; recursive because
/// forwarding may re-enter.
private final class BufferTimeCountSink<Element>: Sink<Element, [Element]> {
    let timer = SerialDisposable()
    private let timeSpan: RxTimeInterval
    private let count: Int
    private let scheduler: SchedulerType
    private let lock = Lock.make(recursive: true)

    // Guarded by `lock`.
    private var buffer: [Element] = []
    /// Bumped whenever an array is sent, so a timer for an earlier array does nothing.
    private var window = 0

    init(timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType, observer: ObserverNode<[Element]>, cancel: Cancelable) {
        self.timeSpan = timeSpan
        self.count = count
        self.scheduler = scheduler
        super.init(observer: observer, cancel: cancel)
    }

    override func onNext(_ element: Element) {
        lock.lock(); defer { lock.unlock() }
        buffer.append(element)
        if buffer.count == count {
            sendAndStartNewWindow()
        }
    }

    override func onError(_ error: Swift.Error) {
        lock.lock(); defer { lock.unlock() }
        buffer = []
        forwardError(error)
        dispose()
    }

    override func onCompleted() {
        lock.lock(); defer { lock.unlock() }
        forwardNext(buffer)
        forwardCompleted()
        dispose()
    }

    /// Must hold `lock` (or be in `run`, before any event).
    private func sendAndStartNewWindow() {
        window &+= 1
        let sent = buffer
        buffer = []
        forwardNext(sent)
        startTimer(forWindow: window)
    }

    func startTimer(forWindow id: Int) {
        if timer.isDisposed || id != window { return }
        let next = SingleAssignmentDisposable()
        timer.disposable = next
        next.setDisposable(scheduler.scheduleRelative(id, dueTime: timeSpan) { firedWindow in
            self.timerFired(firedWindow)
            return Disposables.create()
        })
    }

    private func timerFired(_ firedWindow: Int) {
        lock.lock(); defer { lock.unlock() }
        guard firedWindow == window else { return }
        sendAndStartNewWindow()
    }
}
