/// A sequence that holds a reference on `refCount` while subscribed, so that what the
/// count guards (the source of `window` or `groupBy`) lives as long as an inner sequence
/// is observed.
final class AddRef<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let refCount: RefCountDisposable

    init(source: Observable<Element>, refCount: RefCountDisposable) {
        self.source = source
        self.refCount = refCount
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let reference = refCount.retain()
        let sink = AddRefSink(observer: observer, cancel: cancel)
        let subscription = Disposables.create(reference, source.subscribe(node: sink))
        return (sink, subscription)
    }
}

private final class AddRefSink<Element>: Sink<Element, Element> {
    override func onNext(_ element: Element) {
        forwardNext(element)
    }
}
