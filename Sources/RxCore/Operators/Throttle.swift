import Foundation

extension ObservableType {
    /// Emits the first element at once, then at most one element per `dueTime`.
    ///
    /// With `latest` (the default), the last element received inside a window is emitted
    /// when the window ends, at last emission + `dueTime`; without it, those elements are
    /// dropped. Completion waits for a pending element; an error is forwarded at once.
    public func throttle(_ dueTime: RxTimeInterval, latest: Bool = true, scheduler: SchedulerType) -> Observable<Element> {
        Throttle(source: asObservable(), dueTime: dueTime, latest: latest, scheduler: scheduler)
    }
}

private final class Throttle<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let dueTime: RxTimeInterval
    private let latest: Bool
    private let scheduler: SchedulerType

    init(source: Observable<Element>, dueTime: RxTimeInterval, latest: Bool, scheduler: SchedulerType) {
        self.source = source
        self.dueTime = dueTime
        self.latest = latest
        self.scheduler = scheduler
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = ThrottleSink(dueTime: dueTime, latest: latest, scheduler: scheduler, observer: observer, cancel: cancel)
        let subscription = source.subscribe(node: sink)
        return (sink, Disposables.create(subscription, sink.timer))
    }
}

/// The lock serialises source events, the timer and what they forward; recursive because
/// forwarding may re-enter.
private final class ThrottleSink<Element>: Sink<Element, Element> {
    let timer = SerialDisposable()
    private let dueTime: RxTimeInterval
    private let latest: Bool
    private let scheduler: SchedulerType
    private let lock = Lock.make(recursive: true)

    // Guarded by `lock`.
    private var unsent: Element?
    private var lastSentTime: Date?
    private var completedWhilePending = false

    init(dueTime: RxTimeInterval, latest: Bool, scheduler: SchedulerType, observer: ObserverNode<Element>, cancel: Cancelable) {
        self.dueTime = dueTime
        self.latest = latest
        self.scheduler = scheduler
        super.init(observer: observer, cancel: cancel)
    }

    override func onNext(_ element: Element) {
        lock.lock(); defer { lock.unlock() }
        // What is left of the window that started at the last emission.
        let remaining: RxTimeInterval = lastSentTime.map { dueTime.reduced(from: $0, to: scheduler.now) } ?? .nanoseconds(0)
        if remaining.isNow {
            sendNow(element)
            return
        }
        guard latest else { return }
        let alreadyScheduled = unsent != nil
        unsent = element
        if alreadyScheduled { return }
        let next = SingleAssignmentDisposable()
        timer.disposable = next
        next.setDisposable(scheduler.scheduleRelative((), dueTime: remaining) { _ in
            self.windowEnded()
            return Disposables.create()
        })
    }

    override func onError(_ error: Swift.Error) {
        lock.lock(); defer { lock.unlock() }
        unsent = nil
        forwardError(error)
        dispose()
    }

    override func onCompleted() {
        lock.lock(); defer { lock.unlock() }
        if unsent != nil {
            // The pending element goes out when its window ends, then completion.
            completedWhilePending = true
        } else {
            forwardCompleted()
            dispose()
        }
    }

    private func sendNow(_ element: Element) {
        unsent = nil
        forwardNext(element)
        // Taken after forwarding, so slow downstream work widens the gap rather than
        // letting the next element through early (as RxSwift does).
        lastSentTime = scheduler.now
    }

    private func windowEnded() {
        lock.lock(); defer { lock.unlock() }
        if let element = unsent {
            sendNow(element)
        }
        if completedWhilePending {
            forwardCompleted()
            dispose()
        }
    }
}
