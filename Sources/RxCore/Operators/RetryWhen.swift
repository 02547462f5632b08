import Synchronization

extension ObservableType {
    /// Resubscribes to this sequence after an error of type `Error` each time the sequence
    /// `notificationHandler` made from the errors sends an element; it completing or
    /// failing ends the result the same way. Errors of another type are forwarded.
    public func retry<TriggerObservable: ObservableType, Error: Swift.Error>(
        when notificationHandler: @escaping (Observable<Error>) -> TriggerObservable
    ) -> Observable<Element> {
        RetryWhen(source: asObservable(), notificationHandler: { notificationHandler($0).asObservable() })
    }

    /// Resubscribes to this sequence after an error each time the sequence
    /// `notificationHandler` made from the errors sends an element; it completing or
    /// failing ends the result the same way.
    public func retry<TriggerObservable: ObservableType>(
        when notificationHandler: @escaping (Observable<Swift.Error>) -> TriggerObservable
    ) -> Observable<Element> {
        RetryWhen(source: asObservable(), notificationHandler: { notificationHandler($0).asObservable() })
    }

    /// Renamed `retry(when:)` in RxSwift 6.
    @available(*, deprecated, renamed: "retry(when:)")
    public func retryWhen<TriggerObservable: ObservableType, Error: Swift.Error>(
        _ notificationHandler: @escaping (Observable<Error>) -> TriggerObservable
    ) -> Observable<Element> {
        retry(when: notificationHandler)
    }

    /// Renamed `retry(when:)` in RxSwift 6.
    @available(*, deprecated, renamed: "retry(when:)")
    public func retryWhen<TriggerObservable: ObservableType>(
        _ notificationHandler: @escaping (Observable<Swift.Error>) -> TriggerObservable
    ) -> Observable<Element> {
        retry(when: notificationHandler)
    }
}

private final class RetryWhen<Element, Failure: Swift.Error, Trigger>: Producer<Element> {
    private let source: Observable<Element>
    private let notificationHandler: (Observable<Failure>) -> Observable<Trigger>

    init(source: Observable<Element>, notificationHandler: @escaping (Observable<Failure>) -> Observable<Trigger>) {
        self.source = source
        self.notificationHandler = notificationHandler
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = RetryWhenSink<Element, Failure, Trigger>(source: source, observer: observer, cancel: cancel)
        let subscription = sink.run(notificationHandler)
        return (sink, subscription)
    }
}

/// As RxSwift: the handler runs once per subscription, over a subject of the errors, and
/// its output is relayed through `notifier`. After each error the failed subscription is
/// disposed, a trigger observer listens to `notifier`, and the error is sent; the
/// trigger's next element resubscribes (through a work-in-progress loop, so a synchronous
/// trigger does not recurse).
private final class RetryWhenSink<Element, Failure: Swift.Error, Trigger>: Sink<Element, Element> {
    private let source: Observable<Element>
    private let errors = PublishSubject<Failure>()
    private let notifier = PublishSubject<Trigger>()
    private let sourceSubscription = SerialDisposable()
    private let triggerSubscription = SerialDisposable()
    private let pending = Atomic<Int>(0)

    init(source: Observable<Element>, observer: ObserverNode<Element>, cancel: Cancelable) {
        self.source = source
        super.init(observer: observer, cancel: cancel)
    }

    func run(_ notificationHandler: (Observable<Failure>) -> Observable<Trigger>) -> Disposable {
        let handlerSubscription = notificationHandler(errors.asObservable()).subscribe(notifier)
        scheduleAttempt()
        return Disposables.create(sourceSubscription, triggerSubscription, handlerSubscription)
    }

    func scheduleAttempt() {
        if pending.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue != 0 { return }
        repeat {
            attempt()
        } while pending.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue != 0
    }

    private func attempt() {
        if isDisposed { return }
        triggerSubscription.disposable = Disposables.create()
        let current = SingleAssignmentDisposable()
        sourceSubscription.disposable = current
        current.setDisposable(source.subscribe(node: self))
    }

    override func onNext(_ element: Element) {
        forwardNext(element)
    }

    override func onError(_ error: Swift.Error) {
        guard let failure = error as? Failure else {
            forwardError(error)
            dispose()
            return
        }
        sourceSubscription.disposable = Disposables.create()
        let trigger = SingleAssignmentDisposable()
        triggerSubscription.disposable = trigger
        trigger.setDisposable(notifier.subscribe(node: RetryWhenTrigger(parent: self)))
        errors.onNext(failure)
    }
}

private final class RetryWhenTrigger<Element, Failure: Swift.Error, Trigger>: ObserverNode<Trigger> {
    private let parent: RetryWhenSink<Element, Failure, Trigger>

    init(parent: RetryWhenSink<Element, Failure, Trigger>) {
        self.parent = parent
    }

    override func onNext(_ element: Trigger) {
        parent.scheduleAttempt()
    }

    override func onError(_ error: Swift.Error) {
        parent.forwardError(error)
        parent.dispose()
    }

    override func onCompleted() {
        parent.forwardCompleted()
        parent.dispose()
    }
}
