extension ObservableType {
    /// A sequence that ends at once with `error`, with no elements.
    public static func error(_ error: Swift.Error) -> Observable<Element> {
        ErrorProducer(error: error)
    }
}

private final class ErrorProducer<Element>: Producer<Element> {
    private let error: Swift.Error

    init(error: Swift.Error) {
        self.error = error
    }

    override func subscribe(node observer: ObserverNode<Element>) -> Disposable {
        observer.onError(error)
        return Disposables.create()
    }
}
