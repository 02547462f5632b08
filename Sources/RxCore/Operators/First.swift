extension ObservableType {
    /// Sends the first element (or `nil` when the source completes empty), then completes
    /// and disposes the source.
    ///
    /// RxSwift 6 returns `Single<Element?>`; Bindery has no `Single` yet, so this returns
    /// an `Observable` that sends exactly one optional (or fails).
    public func first() -> Observable<Element?> {
        First(source: asObservable())
    }
}

private final class First<Element>: Producer<Element?> {
    private let source: Observable<Element>

    init(source: Observable<Element>) {
        self.source = source
    }

    override func run(_ observer: ObserverNode<Element?>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = FirstSink(observer: observer, cancel: cancel)
        let subscription = source.subscribe(node: sink)
        return (sink, subscription)
    }
}

private final class FirstSink<Element>: Sink<Element, Element?> {
    override func onNext(_ element: Element) {
        forwardNext(element)
        forwardCompleted()
        dispose()
    }

    override func onCompleted() {
        forwardNext(nil)
        forwardCompleted()
        dispose()
    }
}
