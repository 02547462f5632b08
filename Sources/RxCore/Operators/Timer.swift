// `FixedWidthInteger` is what RxSwift's `RxAbstractInteger` stands for; it is spelled out
// here so that this file does not depend on where that alias is declared.
extension ObservableType where Element: FixedWidthInteger {
    /// Emits 0, 1, 2, … every `period`, the first after one period, on `scheduler`.
    public static func interval(_ period: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        Timer(dueTime: period, period: period, scheduler: scheduler)
    }

    /// Emits 0 after `dueTime`, then completes; with a `period`, keeps emitting 1, 2, …
    /// every `period` instead of completing.
    public static func timer(_ dueTime: RxTimeInterval, period: RxTimeInterval? = nil, scheduler: SchedulerType) -> Observable<Element> {
        Timer(dueTime: dueTime, period: period, scheduler: scheduler)
    }
}

private final class Timer<Element: FixedWidthInteger>: Producer<Element> {
    private let dueTime: RxTimeInterval
    private let period: RxTimeInterval?
    private let scheduler: SchedulerType

    init(dueTime: RxTimeInterval, period: RxTimeInterval?, scheduler: SchedulerType) {
        self.dueTime = dueTime
        self.period = period
        self.scheduler = scheduler
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = TimerSink(observer: observer, cancel: cancel)
        let subscription: Disposable
        if let period {
            // The scheduler threads the counter through the ticks; `&+` because a long
            // enough interval of a small integer type wraps, as in RxSwift.
            subscription = scheduler.schedulePeriodic(Element.zero, startAfter: dueTime, period: period) { count in
                sink.forwardNext(count)
                return count &+ 1
            }
        } else {
            subscription = scheduler.scheduleRelative(sink, dueTime: dueTime) { sink in
                sink.forwardNext(Element.zero)
                sink.forwardCompleted()
                sink.dispose()
                return Disposables.create()
            }
        }
        return (sink, subscription)
    }
}

private final class TimerSink<Element>: Sink<Never, Element> {}
