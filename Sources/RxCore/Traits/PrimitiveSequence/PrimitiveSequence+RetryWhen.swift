extension PrimitiveSequence {
    /// Resubscribes after an error of type `Error` each time the sequence
    /// `notificationHandler` makes of the errors sends an element; its completion
    /// completes the result and its error fails it. Errors of other types fail at once.
    public func retry<TriggerObservable: ObservableType, Error: Swift.Error>(
        when notificationHandler: @escaping (Observable<Error>) -> TriggerObservable
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: PrimitiveRetryWhen(source: source, notificationHandler: { notificationHandler($0).asObservable().map { _ in () } }))
    }

    /// Resubscribes after an error each time the sequence `notificationHandler` makes of
    /// the errors sends an element; its completion completes the result and its error
    /// fails it.
    public func retry<TriggerObservable: ObservableType>(
        when notificationHandler: @escaping (Observable<Swift.Error>) -> TriggerObservable
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: PrimitiveRetryWhen(source: source, notificationHandler: { notificationHandler($0).asObservable().map { _ in () } }))
    }

    /// Resubscribes after an error each time the notifier sends an element.
    @available(*, deprecated, renamed: "retry(when:)")
    public func retryWhen<TriggerObservable: ObservableType, Error: Swift.Error>(
        _ notificationHandler: @escaping (Observable<Error>) -> TriggerObservable
    ) -> PrimitiveSequence<Trait, Element> {
        retry(when: notificationHandler)
    }

    /// Resubscribes after an error each time the notifier sends an element.
    @available(*, deprecated, renamed: "retry(when:)")
    public func retryWhen<TriggerObservable: ObservableType>(
        _ notificationHandler: @escaping (Observable<Swift.Error>) -> TriggerObservable
    ) -> PrimitiveSequence<Trait, Element> {
        retry(when: notificationHandler)
    }
}

/// `retry(when:)` for traits, kept private so the traits do not depend on the Observable
/// operator's file. The notifier is subscribed once, before the first attempt, through a
/// subject; each error of type `Failure` listens to it for the next decision.
private final class PrimitiveRetryWhen<Element, Failure: Swift.Error>: Producer<Element> {
    private let source: Observable<Element>
    private let notificationHandler: (Observable<Failure>) -> Observable<Void>

    init(source: Observable<Element>, notificationHandler: @escaping (Observable<Failure>) -> Observable<Void>) {
        self.source = source
        self.notificationHandler = notificationHandler
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = PrimitiveRetryWhenSink<Element, Failure>(observer: observer, cancel: cancel, source: source)
        let subscription = sink.run(notificationHandler)
        return (sink, subscription)
    }
}

private final class PrimitiveRetryWhenSink<Element, Failure: Swift.Error>: Sink<Never, Element> {
    private let source: Observable<Element>
    private let errors = PublishSubject<Failure>()
    private let notifier = PublishSubject<Void>()
    private let attempt = SerialDisposable()
    private let decision = SerialDisposable()

    init(observer: ObserverNode<Element>, cancel: Cancelable, source: Observable<Element>) {
        self.source = source
        super.init(observer: observer, cancel: cancel)
    }

    func run(_ notificationHandler: (Observable<Failure>) -> Observable<Void>) -> Disposable {
        let trigger = notificationHandler(errors.asObservable()).subscribe(notifier)
        subscribeSource()
        return Disposables.create(trigger, attempt, decision)
    }

    func subscribeSource() {
        if isDisposed { return }
        let attemptObserver = AttemptObserver(self)
        attempt.disposable = source.subscribe(node: attemptObserver)
    }

    func attemptFailed(_ error: Swift.Error) {
        guard let failure = error as? Failure else {
            forwardError(error)
            dispose()
            return
        }
        decision.disposable = notifier.subscribe(node: DecisionObserver(self, error: error))
        errors.onNext(failure)
    }

    /// Observes one subscription to the source.
    private final class AttemptObserver: ObserverNode<Element> {
        private let sink: PrimitiveRetryWhenSink

        init(_ sink: PrimitiveRetryWhenSink) {
            self.sink = sink
        }

        override func onNext(_ element: Element) { sink.forwardNext(element) }
        override func onError(_ error: Swift.Error) { sink.attemptFailed(error) }
        override func onCompleted() {
            sink.forwardCompleted()
            sink.dispose()
        }
    }

    /// Listens to the notifier after one failed attempt: an element retries.
    private final class DecisionObserver: ObserverNode<Void> {
        private let sink: PrimitiveRetryWhenSink
        private var decided = false

        init(_ sink: PrimitiveRetryWhenSink, error: Swift.Error) {
            self.sink = sink
        }

        override func onNext(_ element: Void) {
            if decided { return }
            decided = true
            sink.subscribeSource()
        }

        override func onError(_ error: Swift.Error) {
            sink.forwardError(error)
            sink.dispose()
        }

        override func onCompleted() {
            sink.forwardCompleted()
            sink.dispose()
        }
    }
}
