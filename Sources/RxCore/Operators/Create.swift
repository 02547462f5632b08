import Synchronization

extension ObservableType {
    /// A cold sequence: `subscribe` runs once per subscription with an observer to send
    /// events to; the disposable it returns is disposed once, after the terminal event or
    /// on dispose, whichever comes first.
    public static func create(_ subscribe: @escaping (AnyObserver<Element>) -> Disposable) -> Observable<Element> {
        AnonymousObservable(subscribe)
    }
}

private final class AnonymousObservable<Element>: Producer<Element> {
    let subscribeHandler: (AnyObserver<Element>) -> Disposable

    init(_ subscribeHandler: @escaping (AnyObserver<Element>) -> Disposable) {
        self.subscribeHandler = subscribeHandler
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = AnonymousObservableSink(observer: observer, cancel: cancel)
        let subscription = subscribeHandler(AnyObserver(sink))
        return (sink, subscription)
    }
}

private final class AnonymousObservableSink<Element>: Sink<Element, Element> {
    private let stopped = Atomic<Bool>(false)

    override func onNext(_ element: Element) {
        if stopped.load(ordering: .relaxed) { return }
        forwardNext(element)
    }

    override func onError(_ error: Swift.Error) {
        guard stopped.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        forwardError(error)
        dispose()
    }

    override func onCompleted() {
        guard stopped.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        forwardCompleted()
        dispose()
    }
}
