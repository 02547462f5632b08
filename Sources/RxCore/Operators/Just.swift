extension ObservableType {
    /// A sequence of one element, then `completed`.
    public static func just(_ element: Element) -> Observable<Element> {
        Just(element: element)
    }

    /// A sequence of one element sent on `scheduler`, then `completed` in the scheduler's
    /// next step.
    public static func just(_ element: Element, scheduler: ImmediateSchedulerType) -> Observable<Element> {
        ScheduledJust(element: element, scheduler: scheduler)
    }
}

private final class Just<Element>: Producer<Element> {
    private let element: Element

    init(element: Element) {
        self.element = element
    }

    override func subscribe(node observer: ObserverNode<Element>) -> Disposable {
        observer.onNext(element)
        observer.onCompleted()
        return Disposables.create()
    }
}

private final class ScheduledJust<Element>: Producer<Element> {
    private let element: Element
    private let scheduler: ImmediateSchedulerType

    init(element: Element, scheduler: ImmediateSchedulerType) {
        self.element = element
        self.scheduler = scheduler
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = ScheduledJustSink(observer: observer, cancel: cancel)
        let scheduler = self.scheduler
        // As RxSwift: the element is one scheduled step, the completion the next; the
        // disposable the first action returns is disposed with the subscription.
        let subscription = scheduler.schedule(element) { element in
            sink.forwardNext(element)
            return scheduler.schedule(()) { _ in
                sink.forwardCompleted()
                sink.dispose()
                return Disposables.create()
            }
        }
        return (sink, subscription)
    }
}

private final class ScheduledJustSink<Element>: Sink<Never, Element> {}
