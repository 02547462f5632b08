extension ObservableType {
    /// Sends `elements` synchronously on subscribe, then subscribes to this sequence.
    public func startWith(_ elements: Element...) -> Observable<Element> {
        StartWith(source: asObservable(), elements: elements)
    }
}

private final class StartWith<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let elements: [Element]

    init(source: Observable<Element>, elements: [Element]) {
        self.source = source
        self.elements = elements
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        // No sink of its own: the prefix goes straight to the observer, and the source is
        // then subscribed with that same observer, so elements cost nothing extra.
        for element in elements {
            observer.onNext(element)
        }
        return (Disposables.create(), source.subscribe(node: observer))
    }
}
