import Dispatch

extension ObservableType {
    /// Re-delivers every event on `scheduler`, in order.
    ///
    /// Subscribing and disposing are not moved (use `subscribe(on:)` for that). With
    /// `MainScheduler.instance`, events that arrive on the loop thread while nothing is
    /// queued are delivered synchronously.
    public func observe(on scheduler: ImmediateSchedulerType) -> Observable<Element> {
        // Serial schedulers run work in order, so a whole batch of queued events can be
        // delivered by one scheduled drain; any other scheduler gets one event per
        // scheduled action (a concurrent one would otherwise reorder them).
        if let serial = scheduler as? SerialDispatchQueueScheduler {
            return ObserveOnSerial(source: asObservable(), target: .queue(serial.configuration.queue))
        }
        if let main = scheduler as? MainScheduler {
            return ObserveOnSerial(source: asObservable(), target: .scheduler(main))
        }
        return ObserveOn(source: asObservable(), scheduler: scheduler)
    }

    /// Renamed `observe(on:)` in RxSwift 6.
    @available(*, deprecated, renamed: "observe(on:)")
    public func observeOn(_ scheduler: ImmediateSchedulerType) -> Observable<Element> {
        observe(on: scheduler)
    }
}

/// How a sequence ended, kept apart from the queued elements so that queueing builds no
/// `Event<Element>`.
private enum Termination {
    case error(Swift.Error)
    case completed
}

// MARK: - Serial schedulers: one drain per batch

/// Where the serial path runs its drains.
private enum SerialTarget {
    /// A serial dispatch queue: a plain `async`, no per-drain disposable.
    case queue(DispatchQueue)
    /// `MainScheduler`: through its `schedule`, which runs at once on the loop thread
    /// when nothing is in flight.
    case scheduler(ImmediateSchedulerType)
}

private final class ObserveOnSerial<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let target: SerialTarget

    init(source: Observable<Element>, target: SerialTarget) {
        self.source = source
        self.target = target
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = ObserveOnSerialSink(target: target, observer: observer, cancel: cancel)
        let subscription = source.subscribe(node: sink)
        return (sink, subscription)
    }
}

/// Per event: a lock and an append. A drain is scheduled only when none is pending; it
/// delivers everything queued so far, outside the lock, then schedules the next drain if
/// more arrived meanwhile (so a busy source cannot monopolise the queue or the loop).
/// At most one drain exists at a time, which is what keeps the order.
private final class ObserveOnSerialSink<Element>: Sink<Element, Element> {
    private let target: SerialTarget
    private let lock = Lock.make()

    // Guarded by `lock`.
    private var pending: ContiguousArray<Element> = []
    private var termination: Termination?
    private var drainScheduled = false

    /// Touched only by the current drain (drains never overlap; `lock` orders them).
    private var batch: ContiguousArray<Element> = []

    init(target: SerialTarget, observer: ObserverNode<Element>, cancel: Cancelable) {
        self.target = target
        super.init(observer: observer, cancel: cancel)
    }

    override func onNext(_ element: Element) {
        lock.lock()
        if termination != nil {
            lock.unlock()
            return
        }
        pending.append(element)
        let start = !drainScheduled
        drainScheduled = true
        lock.unlock()
        if start { scheduleDrain() }
    }

    override func onError(_ error: Swift.Error) {
        terminate(.error(error))
    }

    override func onCompleted() {
        terminate(.completed)
    }

    private func terminate(_ end: Termination) {
        lock.lock()
        if termination != nil {
            lock.unlock()
            return
        }
        termination = end
        let start = !drainScheduled
        drainScheduled = true
        lock.unlock()
        if start { scheduleDrain() }
    }

    private func scheduleDrain() {
        switch target {
        case .queue(let queue):
            let sink = UncheckedSendable(self)
            queue.async { sink.value.drain() }
        case .scheduler(let scheduler):
            _ = scheduler.schedule(self) { sink in
                sink.drain()
                return Disposables.create()
            }
        }
    }

    private func drain() {
        lock.lock()
        swap(&pending, &batch)
        // Nothing follows a termination, so when one is set `batch` holds every element
        // still owed before it.
        let end = termination
        lock.unlock()

        for element in batch {
            if isDisposed { break }
            forwardNext(element)
        }
        batch.removeAll(keepingCapacity: true)
        if isDisposed { return }

        if let end {
            switch end {
            case .error(let error): forwardError(error)
            case .completed: forwardCompleted()
            }
            dispose()
            return
        }

        lock.lock()
        let more = !pending.isEmpty || termination != nil
        if !more { drainScheduled = false }
        lock.unlock()
        if more { scheduleDrain() }
    }

    override func dispose() {
        super.dispose()
        // Drop what can no longer be delivered.
        lock.performLocked { pending.removeAll() }
    }
}

// MARK: - Any other scheduler: one event per scheduled action

private final class ObserveOn<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let scheduler: ImmediateSchedulerType

    init(source: Observable<Element>, scheduler: ImmediateSchedulerType) {
        self.source = source
        self.scheduler = scheduler
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = ObserveOnSink(scheduler: scheduler, observer: observer, cancel: cancel)
        let subscription = source.subscribe(node: sink)
        return (sink, Disposables.create(subscription, sink.pump))
    }
}

/// Queues events and delivers them through `scheduleRecursive`, one per action, with at
/// most one action pending, as RxSwift's `ObserveOnSink` does.
private final class ObserveOnSink<Element>: Sink<Element, Element> {
    let pump = GenerationalDisposable()
    private let scheduler: ImmediateSchedulerType
    private let lock = Lock.make()

    // Guarded by `lock`.
    private var queue = FIFOQueue<Element>()
    private var termination: Termination?
    private var running = false

    init(scheduler: ImmediateSchedulerType, observer: ObserverNode<Element>, cancel: Cancelable) {
        self.scheduler = scheduler
        super.init(observer: observer, cancel: cancel)
    }

    override func onNext(_ element: Element) {
        let pumpNumber: UInt64? = lock.performLocked {
            if termination != nil { return nil }
            queue.enqueue(element)
            return startIfStopped()
        }
        if let pumpNumber { startPump(pumpNumber) }
    }

    override func onError(_ error: Swift.Error) {
        terminate(.error(error))
    }

    override func onCompleted() {
        terminate(.completed)
    }

    private func terminate(_ end: Termination) {
        let pumpNumber: UInt64? = lock.performLocked {
            if termination != nil { return nil }
            termination = end
            return startIfStopped()
        }
        if let pumpNumber { startPump(pumpNumber) }
    }

    /// Must hold `lock`. The number of the pump to start, if none is running.
    private func startIfStopped() -> UInt64? {
        if running { return nil }
        running = true
        return pump.begin()
    }

    private func startPump(_ number: UInt64) {
        // Scheduled outside `lock`: an immediate scheduler runs the first delivery inline.
        let disposable = scheduler.scheduleRecursive(()) { _, recurse in
            self.deliverOne(recurse)
        }
        pump.store(disposable, for: number)
    }

    private func deliverOne(_ recurse: (()) -> Void) {
        // An element, else the termination once the queue is empty, else nothing.
        var end: Termination?
        lock.lock()
        let element = queue.dequeue()
        if element == nil {
            end = termination
            if end == nil { running = false }
        }
        lock.unlock()
        if isDisposed { return }
        if let element {
            forwardNext(element)
        } else if let end {
            switch end {
            case .error(let error): forwardError(error)
            case .completed: forwardCompleted()
            }
            dispose()
            return
        } else {
            return
        }
        let more: Bool = lock.performLocked {
            if queue.isEmpty && termination == nil {
                running = false
                return false
            }
            return true
        }
        if more { recurse(()) }
    }
}
