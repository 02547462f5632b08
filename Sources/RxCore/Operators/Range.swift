/// The integer types `range` works with (RxSwift's name).
public typealias RxAbstractInteger = FixedWidthInteger

extension ObservableType where Element: RxAbstractInteger {
    /// `count` consecutive integers from `start`, then `completed`, sent on `scheduler`.
    ///
    /// A negative `count`, or a range past `Element.max`, is a programmer error and traps.
    public static func range(start: Element, count: Element, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element> {
        RangeProducer(start: start, count: count, scheduler: scheduler)
    }
}

private final class RangeProducer<Element: RxAbstractInteger>: Producer<Element> {
    private let start: Element
    private let count: Element
    private let scheduler: ImmediateSchedulerType

    init(start: Element, count: Element, scheduler: ImmediateSchedulerType) {
        precondition(count >= 0, "range: count can't be negative")
        precondition(count == 0 || !start.addingReportingOverflow(count - 1).overflow, "range: overflow")
        precondition(Int(exactly: count) != nil, "range: count too large")
        self.start = start
        self.count = count
        self.scheduler = scheduler
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = RangeSink<Element>(observer: observer, cancel: cancel)
        let start = self.start
        // An `Int` step counter keeps the recursion specialised; the checks in `init`
        // make `start + index` exact.
        let count = Int(count)
        let subscription = scheduler.scheduleRecursive(0) { index, recurse in
            if index < count {
                sink.forwardNext(start &+ Element(truncatingIfNeeded: index))
                recurse(index + 1)
            } else {
                sink.forwardCompleted()
                sink.dispose()
            }
        }
        return (sink, subscription)
    }
}

private final class RangeSink<Element>: Sink<Never, Element> {}
