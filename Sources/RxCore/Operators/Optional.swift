extension ObservableType {
    /// `optional`'s value if there is one, then `completed`, sent synchronously on subscribe.
    public static func from(optional: Element?) -> Observable<Element> {
        ObservableOptional(optional: optional)
    }

    /// `optional`'s value if there is one, then `completed`, sent on `scheduler` (the value
    /// and `completed` in two scheduled steps, as in RxSwift).
    public static func from(optional: Element?, scheduler: ImmediateSchedulerType) -> Observable<Element> {
        ObservableOptionalScheduled(optional: optional, scheduler: scheduler)
    }
}

private final class ObservableOptional<Element>: Producer<Element> {
    private let optional: Element?

    init(optional: Element?) {
        self.optional = optional
    }

    override func subscribe(node observer: ObserverNode<Element>) -> Disposable {
        if let element = optional {
            observer.onNext(element)
        }
        observer.onCompleted()
        return Disposables.create()
    }
}

private final class ObservableOptionalScheduled<Element>: Producer<Element> {
    private let optional: Element?
    private let scheduler: ImmediateSchedulerType

    init(optional: Element?, scheduler: ImmediateSchedulerType) {
        self.optional = optional
        self.scheduler = scheduler
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = ObservableOptionalScheduledSink<Element>(observer: observer, cancel: cancel)
        let scheduler = self.scheduler
        let subscription = scheduler.schedule(optional) { optional -> Disposable in
            guard let element = optional else {
                sink.forwardCompleted()
                sink.dispose()
                return Disposables.create()
            }
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

private final class ObservableOptionalScheduledSink<Element>: Sink<Never, Element> {}
