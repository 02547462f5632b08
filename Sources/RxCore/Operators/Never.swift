extension ObservableType {
    /// A sequence that never sends any event.
    public static func never() -> Observable<Element> {
        NeverProducer()
    }
}

private final class NeverProducer<Element>: Producer<Element> {
    override func subscribe(node observer: ObserverNode<Element>) -> Disposable {
        Disposables.create()
    }
}
