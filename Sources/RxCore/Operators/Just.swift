extension ObservableType {
    /// A sequence of one element, then `completed`.
    public static func just(_ element: Element) -> Observable<Element> {
        Just(element: element)
    }

    /// A sequence of one element, then `completed`, sent on `scheduler`.
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
        let subscription = scheduler.schedule(element) { element in
            sink.forwardNext(element)
            sink.forwardCompleted()
            sink.dispose()
            return Disposables.create()
        }
        return (sink, subscription)
    }
}

private final class ScheduledJustSink<Element>: Sink<Never, Element> {}
