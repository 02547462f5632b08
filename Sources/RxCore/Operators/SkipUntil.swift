extension ObservableType {
    /// Drops this sequence's elements until `other` sends an element, then sends the rest.
    ///
    /// The source is subscribed first, then `other`. An error from either ends the result.
    /// A source that completes before `other` has sent an element ends the subscription
    /// without forwarding `completed` (as in RxSwift).
    public func skip<Source: ObservableType>(until other: Source) -> Observable<Element> {
        SkipUntil(source: asObservable(), other: other.asObservable())
    }

    /// Renamed `skip(until:)` in RxSwift 6.
    @available(*, deprecated, renamed: "skip(until:)")
    public func skipUntil<Source: ObservableType>(_ other: Source) -> Observable<Element> {
        skip(until: other)
    }
}

private final class SkipUntil<Element, Other>: Producer<Element> {
    private let source: Observable<Element>
    private let other: Observable<Other>

    init(source: Observable<Element>, other: Observable<Other>) {
        self.source = source
        self.other = other
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = SkipUntilSink<Element, Other>(observer: observer, cancel: cancel)
        let subscription = sink.run(source: source, other: other)
        return (sink, subscription)
    }
}

/// Observes the source. Two sequences feed it, so every event is handled under `lock`
/// (recursive: forwarding may make the other sequence emit on the same thread).
private final class SkipUntilSink<Element, Other>: Sink<Element, Element> {
    let lock = Lock.make(recursive: true)
    /// Set, under `lock`, once `other` has sent an element.
    var forwardElements = false

    func run(source: Observable<Element>, other: Observable<Other>) -> Disposable {
        let sourceSubscription = SingleAssignmentDisposable()
        sourceSubscription.setDisposable(source.subscribe(node: self))
        let otherObserver = SkipUntilOtherObserver(parent: self)
        otherObserver.subscription.setDisposable(other.subscribe(node: otherObserver))
        return Disposables.create(sourceSubscription, otherObserver.subscription)
    }

    override func onNext(_ element: Element) {
        lock.lock()
        if forwardElements {
            forwardNext(element)
        }
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
            if forwardElements {
                forwardCompleted()
            }
            dispose()
        }
    }
}

private final class SkipUntilOtherObserver<Element, Other>: ObserverNode<Other> {
    let subscription = SingleAssignmentDisposable()
    private let parent: SkipUntilSink<Element, Other>

    init(parent: SkipUntilSink<Element, Other>) {
        self.parent = parent
    }

    override func onNext(_ element: Other) {
        parent.lock.performLocked {
            parent.forwardElements = true
        }
        // One element is all `other` is for.
        subscription.dispose()
    }

    override func onError(_ error: Swift.Error) {
        parent.lock.performLocked {
            parent.forwardError(error)
            parent.dispose()
        }
    }

    override func onCompleted() {
        subscription.dispose()
    }
}
