extension ObservableType {
    /// A sequence that completes at once, with no elements.
    public static func empty() -> Observable<Element> {
        EmptyProducer()
    }
}

private final class EmptyProducer<Element>: Producer<Element> {
    // Nothing to trampoline or dispose: the single event goes straight to the observer.
    override func subscribe(node observer: ObserverNode<Element>) -> Disposable {
        observer.onCompleted()
        return Disposables.create()
    }
}
