extension ObservableType {
    /// Combines each element of this sequence with the latest element of `second` using
    /// `resultSelector`; elements that arrive before `second` has emitted are dropped.
    ///
    /// `second` is subscribed to first, so a value it has synchronously is already there for
    /// this sequence's first element. Completes with this sequence; `second`'s completion is
    /// ignored (its last value stays in use) and its error is forwarded.
    public func withLatestFrom<Source: ObservableConvertibleType, ResultType>(
        _ second: Source,
        resultSelector: @escaping (Element, Source.Element) throws -> ResultType
    ) -> Observable<ResultType> {
        WithLatestFrom(first: asObservable(), second: second.asObservable(), resultSelector: resultSelector)
    }

    /// The latest element of `second` at each element of this sequence, once `second` has
    /// emitted. Same termination rules as ``withLatestFrom(_:resultSelector:)``.
    public func withLatestFrom<Source: ObservableConvertibleType>(_ second: Source) -> Observable<Source.Element> {
        WithLatestFrom(first: asObservable(), second: second.asObservable(), resultSelector: { $1 })
    }
}

private final class WithLatestFrom<First, Second, Result>: Producer<Result> {
    private let first: Observable<First>
    private let second: Observable<Second>
    private let resultSelector: (First, Second) throws -> Result

    init(first: Observable<First>, second: Observable<Second>, resultSelector: @escaping (First, Second) throws -> Result) {
        self.first = first
        self.second = second
        self.resultSelector = resultSelector
    }

    override func run(_ observer: ObserverNode<Result>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = WithLatestFromSink(resultSelector: resultSelector, observer: observer, cancel: cancel)
        let subscription = sink.run(first: first, second: second)
        return (sink, subscription)
    }
}

/// Observes the first sequence; ``WithLatestFromSecond`` stores the second one's latest
/// value in a typed slot (no `Optional<Second>` on the per-element path, see
/// `CombineLatestObserver`).
private final class WithLatestFromSink<First, Second, Result>: Sink<First, Result> {
    /// Recursive: results are forwarded while it is held and may re-enter.
    let lock = Lock.make(recursive: true)
    private let resultSelector: (First, Second) throws -> Result
    /// Initialised once `second` has emitted (`hasLatest`). Guarded by `lock`.
    let latest = UnsafeMutablePointer<Second>.allocate(capacity: 1)
    var hasLatest = false

    init(resultSelector: @escaping (First, Second) throws -> Result, observer: ObserverNode<Result>, cancel: Cancelable) {
        self.resultSelector = resultSelector
        super.init(observer: observer, cancel: cancel)
    }

    deinit {
        if hasLatest { latest.deinitialize(count: 1) }
        latest.deallocate()
    }

    func run(first: Observable<First>, second: Observable<Second>) -> Disposable {
        let secondSubscription = SingleAssignmentDisposable()
        let secondObserver = WithLatestFromSecond(parent: self, subscription: secondSubscription)
        // Second first: its current value must be in place for the first's elements.
        secondSubscription.setDisposable(second.subscribe(node: secondObserver))
        let firstSubscription = first.subscribe(node: self)
        return Disposables.create(firstSubscription, secondSubscription)
    }

    override func onNext(_ element: First) {
        lock.lock()
        defer { lock.unlock() }
        guard hasLatest, !isDisposed else { return }
        let result: Result
        do {
            result = try resultSelector(element, latest.pointee)
        } catch {
            forwardError(error)
            dispose()
            return
        }
        forwardNext(result)
    }

    override func onError(_ error: Swift.Error) {
        lock.lock()
        forwardError(error)
        dispose()
        lock.unlock()
    }

    override func onCompleted() {
        lock.lock()
        forwardCompleted()
        dispose()
        lock.unlock()
    }
}

private final class WithLatestFromSecond<First, Second, Result>: ObserverNode<Second> {
    private let parent: WithLatestFromSink<First, Second, Result>
    private let subscription: Disposable

    init(parent: WithLatestFromSink<First, Second, Result>, subscription: Disposable) {
        self.parent = parent
        self.subscription = subscription
    }

    override func onNext(_ element: Second) {
        let lock = parent.lock
        lock.lock()
        if parent.hasLatest {
            parent.latest.pointee = element
        } else {
            parent.latest.initialize(to: element)
            parent.hasLatest = true
        }
        lock.unlock()
    }

    override func onError(_ error: Swift.Error) {
        let lock = parent.lock
        lock.lock()
        parent.forwardError(error)
        parent.dispose()
        lock.unlock()
    }

    override func onCompleted() {
        let lock = parent.lock
        lock.lock()
        // The last value stays in use; only this subscription ends.
        subscription.dispose()
        lock.unlock()
    }
}
