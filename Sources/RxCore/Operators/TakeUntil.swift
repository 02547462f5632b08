extension ObservableType {
    /// Sends this sequence's events until `other` sends an element.
    ///
    /// `other` is subscribed first. Its first element completes the result and disposes
    /// both subscriptions; its error is forwarded; its `completed` is ignored.
    public func take<Source: ObservableType>(until other: Source) -> Observable<Element> {
        TakeUntil(source: asObservable(), other: other.asObservable())
    }

    /// Renamed `take(until:)` in RxSwift 6.
    @available(*, deprecated, renamed: "take(until:)")
    public func takeUntil<Source: ObservableType>(_ other: Source) -> Observable<Element> {
        take(until: other)
    }
}

private final class TakeUntil<Element, Other>: Producer<Element> {
    private let source: Observable<Element>
    private let other: Observable<Other>

    init(source: Observable<Element>, other: Observable<Other>) {
        self.source = source
        self.other = other
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = TakeUntilSink<Element, Other>(observer: observer, cancel: cancel)
        let subscription = sink.run(source: source, other: other)
        return (sink, subscription)
    }
}

/// Observes the source. Two sequences feed it, so every event is handled under `lock`
/// (recursive: forwarding may make the other sequence emit on the same thread).
private final class TakeUntilSink<Element, Other>: Sink<Element, Element> {
    let lock = Lock.make(recursive: true)

    func run(source: Observable<Element>, other: Observable<Other>) -> Disposable {
        let otherObserver = TakeUntilOtherObserver(parent: self)
        otherObserver.subscription.setDisposable(other.subscribe(node: otherObserver))
        let sourceSubscription = source.subscribe(node: self)
        return Disposables.create(sourceSubscription, otherObserver.subscription)
    }

    override func onNext(_ element: Element) {
        lock.lock()
        forwardNext(element)
        lock.unlock()
    }

    override func onError(_ error: Swift.Error) {
        lock.performLocked {
            forwardError(error)
            dispose()
        }
    }

    override func onCompleted() {
        lock.performLocked {
            forwardCompleted()
            dispose()
        }
    }
}

private final class TakeUntilOtherObserver<Element, Other>: ObserverNode<Other> {
    let subscription = SingleAssignmentDisposable()
    private let parent: TakeUntilSink<Element, Other>

    init(parent: TakeUntilSink<Element, Other>) {
        self.parent = parent
    }

    override func onNext(_ element: Other) {
        parent.lock.performLocked {
            parent.forwardCompleted()
            parent.dispose()
        }
    }

    override func onError(_ error: Swift.Error) {
        parent.lock.performLocked {
            parent.forwardError(error)
            parent.dispose()
        }
    }

    override func onCompleted() {
        // `other` ending without an element never stops the source.
        subscription.dispose()
    }
}
