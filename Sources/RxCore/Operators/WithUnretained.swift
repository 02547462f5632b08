extension ObservableType {
    /// Each element combined by `resultSelector` with `obj`, held weakly: once `obj` is
    /// gone, the next element completes the sequence instead.
    public func withUnretained<Object: AnyObject, Out>(
        _ obj: Object,
        resultSelector: @escaping (Object, Element) -> Out
    ) -> Observable<Out> {
        WithUnretained(source: asObservable(), object: obj, resultSelector: resultSelector)
    }

    /// Each element paired with `obj`, held weakly: once `obj` is gone, the next element
    /// completes the sequence instead.
    public func withUnretained<Object: AnyObject>(_ obj: Object) -> Observable<(Object, Element)> {
        WithUnretained(source: asObservable(), object: obj, resultSelector: { ($0, $1) })
    }
}

private final class WithUnretained<Object: AnyObject, Element, Out>: Producer<Out> {
    private let source: Observable<Element>
    private weak var object: Object?
    private let resultSelector: (Object, Element) -> Out

    init(source: Observable<Element>, object: Object, resultSelector: @escaping (Object, Element) -> Out) {
        self.source = source
        self.object = object
        self.resultSelector = resultSelector
    }

    override func run(_ observer: ObserverNode<Out>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = WithUnretainedSink(object: object, resultSelector: resultSelector, observer: observer, cancel: cancel)
        let subscription = source.subscribe(node: sink)
        return (sink, subscription)
    }
}

private final class WithUnretainedSink<Object: AnyObject, Element, Out>: Sink<Element, Out> {
    private weak var object: Object?
    private let resultSelector: (Object, Element) -> Out

    init(object: Object?, resultSelector: @escaping (Object, Element) -> Out, observer: ObserverNode<Out>, cancel: Cancelable) {
        self.object = object
        self.resultSelector = resultSelector
        super.init(observer: observer, cancel: cancel)
    }

    override func onNext(_ element: Element) {
        guard let object else {
            forwardCompleted()
            dispose()
            return
        }
        forwardNext(resultSelector(object, element))
    }
}
