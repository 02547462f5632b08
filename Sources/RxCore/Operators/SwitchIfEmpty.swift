extension ObservableType {
    /// This sequence, or, when it completes without any element, the elements and the
    /// termination of `other` (subscribed to only then).
    public func ifEmpty(switchTo other: Observable<Element>) -> Observable<Element> {
        SwitchIfEmpty(source: asObservable(), other: other)
    }
}

private final class SwitchIfEmpty<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let other: Observable<Element>

    init(source: Observable<Element>, other: Observable<Element>) {
        self.source = source
        self.other = other
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = SwitchIfEmptySink(other: other, observer: observer, cancel: cancel)
        let sourceSubscription = SingleAssignmentDisposable()
        sink.subscription.disposable = sourceSubscription
        sourceSubscription.setDisposable(source.subscribe(node: sink))
        return (sink, sink.subscription)
    }
}

private final class SwitchIfEmptySink<Element>: Sink<Element, Element> {
    /// The source's subscription, replaced by `other`'s when the source was empty.
    let subscription = SerialDisposable()
    private let other: Observable<Element>
    private var isEmpty = true

    init(other: Observable<Element>, observer: ObserverNode<Element>, cancel: Cancelable) {
        self.other = other
        super.init(observer: observer, cancel: cancel)
    }

    override func onNext(_ element: Element) {
        isEmpty = false
        forwardNext(element)
    }

    override func onCompleted() {
        guard isEmpty else {
            forwardCompleted()
            dispose()
            return
        }
        let otherSubscription = SingleAssignmentDisposable()
        subscription.disposable = otherSubscription
        otherSubscription.setDisposable(other.subscribe(node: SwitchIfEmptyOther(parent: self)))
    }
}

/// Forwards `other`'s events as the sink's own.
private final class SwitchIfEmptyOther<Element>: ObserverNode<Element> {
    private let parent: SwitchIfEmptySink<Element>

    init(parent: SwitchIfEmptySink<Element>) {
        self.parent = parent
    }

    override func onNext(_ element: Element) { parent.forwardNext(element) }

    override func onError(_ error: Swift.Error) {
        parent.forwardError(error)
        parent.dispose()
    }

    override func onCompleted() {
        parent.forwardCompleted()
        parent.dispose()
    }
}
