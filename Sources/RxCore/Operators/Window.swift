extension ObservableType {
    /// Splits the elements into windows, each an observable sequence, sent as it opens.
    /// A window closes (completes) after `count` elements or `timeSpan` on `scheduler`,
    /// whichever comes first, and the next opens at once; the timer restarts with each
    /// window. The source's error or completion ends the current window and the result.
    public func window(timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType) -> Observable<Observable<Element>> {
        WindowTimeCount(source: asObservable(), timeSpan: timeSpan, count: count, scheduler: scheduler)
    }
}

private final class WindowTimeCount<Element>: Producer<Observable<Element>> {
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

    override func run(_ observer: ObserverNode<Observable<Element>>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = WindowTimeCountSink(timeSpan: timeSpan, count: count, scheduler: scheduler, observer: observer, cancel: cancel)
        let subscription = sink.run(source)
        return (sink, subscription)
    }
}

/// The source and the timer may run on different threads; state and forwarding go
/// through one recursive lock. Windows hold a reference on the source subscription, so it
/// lives while a window is observed (RxSwift's `AddRef`).
private final class WindowTimeCountSink<Element>: Sink<Element, Observable<Element>> {
    private let lock = Lock.make(recursive: true)
    private let timeSpan: RxTimeInterval
    private let maxCount: Int
    private let scheduler: SchedulerType
    private let group: CompositeDisposable
    private let timer = SerialDisposable()
    private let refCount: RefCountDisposable

    // Guarded by `lock`.
    private var subject = PublishSubject<Element>()
    private var count = 0
    private var windowID = 0

    init(timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType, observer: ObserverNode<Observable<Element>>, cancel: Cancelable) {
        self.timeSpan = timeSpan
        self.maxCount = count
        self.scheduler = scheduler
        let group = CompositeDisposable()
        self.group = group
        self.refCount = RefCountDisposable(disposable: group)
        super.init(observer: observer, cancel: cancel)
    }

    func run(_ source: Observable<Element>) -> Disposable {
        _ = group.insert(timer)
        forwardNext(AddRef(source: subject.asObservable(), refCount: refCount))
        startTimer(for: 0)
        _ = group.insert(source.subscribe(node: self))
        return refCount
    }

    /// Completes the current window and opens the next. Called with `lock` held.
    private func startNewWindow() {
        subject.onCompleted()
        subject = PublishSubject()
        forwardNext(AddRef(source: subject.asObservable(), refCount: refCount))
    }

    private func startTimer(for id: Int) {
        if timer.isDisposed { return }
        let next = SingleAssignmentDisposable()
        timer.disposable = next
        next.setDisposable(scheduler.scheduleRelative(id, dueTime: timeSpan) { [weak self] id in
            self?.timerFired(id)
            return Disposables.create()
        })
    }

    private func timerFired(_ id: Int) {
        lock.lock()
        // A window closed by count since this timer started has its own timer.
        guard id == windowID, !isDisposed else {
            lock.unlock()
            return
        }
        count = 0
        windowID &+= 1
        let newID = windowID
        startNewWindow()
        lock.unlock()
        startTimer(for: newID)
    }

    override func onNext(_ element: Element) {
        lock.lock()
        subject.onNext(element)
        count += 1
        guard count >= maxCount else {
            lock.unlock()
            return
        }
        count = 0
        windowID &+= 1
        let newID = windowID
        startNewWindow()
        lock.unlock()
        startTimer(for: newID)
    }

    override func onError(_ error: Swift.Error) {
        lock.lock()
        subject.onError(error)
        forwardError(error)
        lock.unlock()
        dispose()
    }

    override func onCompleted() {
        lock.lock()
        subject.onCompleted()
        forwardCompleted()
        lock.unlock()
        dispose()
    }
}
