import Dispatch

extension ObservableType {
    /// Re-delivers every event on `scheduler`, in order.
    ///
    /// Subscribing and disposing are not moved (use `subscribe(on:)` for that). With
    /// `MainScheduler.instance`, events that arrive on the loop thread while nothing is
    /// queued are delivered synchronously.
    public func observe(on scheduler: ImmediateSchedulerType) -> Observable<Element> {
        // A serial scheduler already runs work in order, so each event can be put on it
        // directly as it arrives (RxSwift's `ObserveOnSerialDispatchQueue`): the event
        // takes its place among any other work on that queue. Any other scheduler might
        // run two actions at once, so events go through a queue drained one per action.
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

// MARK: - Serial schedulers: each event scheduled as it arrives

/// Where the serial path puts events.
private enum SerialTarget {
    /// A serial dispatch queue: a plain `async` per event, no disposable, no lock.
    case queue(DispatchQueue)
    /// `MainScheduler`: through its `schedule`, which runs at once on the loop thread
    /// when nothing is in flight, and otherwise enqueues on the loop.
    case scheduler(ImmediateSchedulerType)
}

private final class ObserveOnSerial<Element>: Producer<Element> {
    #if TRACE_RESOURCES
    private let serialToken = SerialDispatchQueueObservableToken()
    #endif
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

/// Per event: one closure and one enqueue, nothing else. The scheduler's own FIFO keeps
/// the order, also across several streams fed from one thread, and once the sink is
/// disposed the events still queued find it so and are dropped by `forward…`.
///
/// The delivering closures are the only place the sink crosses threads; it is handed
/// over inside `UncheckedSendable` because the serial queue (or loop) runs them one at a
/// time, in order, and `Sink`'s disposed flag is atomic.
private final class ObserveOnSerialSink<Element>: Sink<Element, Element> {
    private let target: SerialTarget

    init(target: SerialTarget, observer: ObserverNode<Element>, cancel: Cancelable) {
        self.target = target
        super.init(observer: observer, cancel: cancel)
    }

    override func onNext(_ element: Element) {
        switch target {
        case .queue(let queue):
            let work = UncheckedSendable((self, element))
            queue.async { work.value.0.forwardNext(work.value.1) }
        case .scheduler(let scheduler):
            _ = scheduler.schedule((self, element)) { work in
                work.0.forwardNext(work.1)
                return Disposables.create()
            }
        }
    }

    override func onError(_ error: Swift.Error) {
        deliverTerminal(.error(error))
    }

    override func onCompleted() {
        deliverTerminal(.completed)
    }

    private func deliverTerminal(_ end: Termination) {
        switch target {
        case .queue(let queue):
            let work = UncheckedSendable((self, end))
            queue.async { work.value.0.finish(work.value.1) }
        case .scheduler(let scheduler):
            _ = scheduler.schedule((self, end)) { work in
                work.0.finish(work.1)
                return Disposables.create()
            }
        }
    }

    private func finish(_ end: Termination) {
        switch end {
        case .error(let error): forwardError(error)
        case .completed: forwardCompleted()
        }
        dispose()
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
    private let queue = RingBuffer<Element>()
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
