import Foundation

extension ObservableType {
    /// Shifts every element and the completion forward in time by `dueTime`; an error is
    /// forwarded at once (dropping the elements still waiting).
    public func delay(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        Delay(source: asObservable(), dueTime: dueTime, scheduler: scheduler)
    }
}

private final class Delay<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let dueTime: RxTimeInterval
    private let scheduler: SchedulerType

    init(source: Observable<Element>, dueTime: RxTimeInterval, scheduler: SchedulerType) {
        self.source = source
        self.dueTime = dueTime
        self.scheduler = scheduler
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = DelaySink(dueTime: dueTime, scheduler: scheduler, observer: observer, cancel: cancel)
        sink.sourceSubscription.setDisposable(source.subscribe(node: sink))
        return (sink, Disposables.create(sink.sourceSubscription, sink.drainSubscription))
    }
}

/// Queues each element with the time it arrived and drains the queue on the scheduler,
/// one item per scheduled run, each `dueTime` after its arrival.
///
/// An error must overtake the queue, and may arrive on another thread while a drain is
/// forwarding; so the error is sent directly only when no drain is forwarding, and
/// otherwise left for the drain to send after its current item.
private final class DelaySink<Element>: Sink<Element, Element> {
    let sourceSubscription = SingleAssignmentDisposable()
    let drainSubscription = GenerationalDisposable()
    private let dueTime: RxTimeInterval
    private let scheduler: SchedulerType
    private let lock = Lock.make()

    // Guarded by `lock`.
    private let queue = RingBuffer<(time: RxTime, element: Element)>()
    /// Arrival time of `completed`; it comes after every queued element.
    private var completedTime: RxTime?
    private var error: Swift.Error?
    /// A drain is scheduled (or running).
    private var active = false
    /// A drain is forwarding right now.
    private var running = false

    init(dueTime: RxTimeInterval, scheduler: SchedulerType, observer: ObserverNode<Element>, cancel: Cancelable) {
        self.dueTime = dueTime
        self.scheduler = scheduler
        super.init(observer: observer, cancel: cancel)
    }

    override func onNext(_ element: Element) {
        let now = scheduler.now
        let drainNumber: UInt64? = lock.performLocked {
            queue.enqueue((now, element))
            return startDrainIfIdle()
        }
        if let drainNumber { scheduleDrain(drainNumber) }
    }

    override func onCompleted() {
        sourceSubscription.dispose()
        let now = scheduler.now
        let drainNumber: UInt64? = lock.performLocked {
            completedTime = now
            return startDrainIfIdle()
        }
        if let drainNumber { scheduleDrain(drainNumber) }
    }

    override func onError(_ error: Swift.Error) {
        sourceSubscription.dispose()
        let sendNow: Bool = lock.performLocked {
            queue.removeAll()
            completedTime = nil
            self.error = error
            return !running
        }
        if sendNow {
            forwardError(error)
            dispose()
        }
    }

    /// Must hold `lock`. The number of the drain to schedule, if none is active.
    private func startDrainIfIdle() -> UInt64? {
        if active { return nil }
        active = true
        return drainSubscription.begin()
    }

    private func scheduleDrain(_ number: UInt64) {
        let disposable = scheduler.scheduleRecursive((), dueTime: dueTime) { _, recurse in
            self.drain(recurse)
        }
        drainSubscription.store(disposable, for: number)
    }

    private enum Step {
        case fail(Swift.Error)
        case next(Element)
        case complete
        case wait(RxTimeInterval)
        case stop
    }

    /// Forwards the item at the head of the queue (it is due), then reschedules for the
    /// next one or goes idle.
    private func drain(_ recurse: AnyRecursiveScheduler<Void>) {
        var forwardedOne = false
        while true {
            let step: Step = lock.performLocked {
                if let error { return .fail(error) }
                if !forwardedOne {
                    if let head = queue.dequeue() {
                        running = true
                        return .next(head.element)
                    }
                    if completedTime != nil {
                        running = true
                        return .complete
                    }
                }
                running = false
                // Each later item waits what is left of `dueTime` since it arrived.
                if let arrival = queue.first?.time ?? completedTime {
                    return .wait(dueTime.reduced(from: arrival, to: scheduler.now))
                }
                active = false
                return .stop
            }
            switch step {
            case .fail(let error):
                forwardError(error)
                dispose()
                return
            case .next(let element):
                forwardedOne = true
                forwardNext(element)
            case .complete:
                forwardCompleted()
                dispose()
                return
            case .wait(let interval):
                recurse.schedule((), dueTime: interval)
                return
            case .stop:
                return
            }
        }
    }
}
