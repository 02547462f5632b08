extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Never {
    /// Subscribes to `second` once this completable completes; the result is `second`'s.
    public func andThen<Element>(_ second: Single<Element>) -> Single<Element> {
        Single(raw: AndThen(completable: primitiveSequence.source, second: second.source))
    }

    /// Subscribes to `second` once this completable completes; the result is `second`'s.
    public func andThen<Element>(_ second: Maybe<Element>) -> Maybe<Element> {
        Maybe(raw: AndThen(completable: primitiveSequence.source, second: second.source))
    }

    /// Subscribes to `second` once this completable completes.
    public func andThen(_ second: Completable) -> Completable {
        Completable(raw: AndThen(completable: primitiveSequence.source, second: second.source))
    }

    /// Subscribes to `second` once this completable completes; the result is `second`'s.
    public func andThen<Element>(_ second: Observable<Element>) -> Observable<Element> {
        AndThen(completable: primitiveSequence.source, second: second.asObservable())
    }
}

/// Subscribes to `completable`, then, when it completes, to `second`, whose events it
/// forwards; an error of `completable` ends it.
private final class AndThen<Element>: Producer<Element> {
    private let completable: Observable<Never>
    private let second: Observable<Element>

    init(completable: Observable<Never>, second: Observable<Element>) {
        self.completable = completable
        self.second = second
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        // Two slots: the completable may complete (and `second` be subscribed) before
        // its own subscribe returns.
        let first = SingleAssignmentDisposable()
        let then = SingleAssignmentDisposable()
        let sink = AndThenSink(observer: observer, cancel: cancel, second: second, subscription: then)
        first.setDisposable(completable.subscribe(node: sink))
        return (sink, Disposables.create(first, then))
    }
}

private final class AndThenSink<Element>: Sink<Never, Element> {
    private let second: Observable<Element>
    private let subscription: SingleAssignmentDisposable

    init(observer: ObserverNode<Element>, cancel: Cancelable, second: Observable<Element>, subscription: SingleAssignmentDisposable) {
        self.second = second
        self.subscription = subscription
        super.init(observer: observer, cancel: cancel)
    }

    override func onNext(_ element: Never) {}

    override func onCompleted() {
        if isDisposed { return }
        subscription.setDisposable(second.subscribe(node: SecondObserver(self)))
    }

    /// Forwards `second`'s events as the result's.
    private final class SecondObserver: ObserverNode<Element> {
        private let sink: AndThenSink

        init(_ sink: AndThenSink) {
            self.sink = sink
        }

        override func onNext(_ element: Element) { sink.forwardNext(element) }
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
