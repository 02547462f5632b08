extension ObservableType {
    /// A sequence made by `observableFactory` for each subscription; a throwing factory
    /// ends the sequence with its error.
    public static func deferred(_ observableFactory: @escaping () throws -> Observable<Element>) -> Observable<Element> {
        Deferred(factory: observableFactory)
    }
}

private final class Deferred<Element>: Producer<Element> {
    private let factory: () throws -> Observable<Element>

    init(factory: @escaping () throws -> Observable<Element>) {
        self.factory = factory
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = DeferredSink(observer: observer, cancel: cancel)
        let source: Observable<Element>
        do {
            source = try factory()
        } catch {
            sink.forwardError(error)
            sink.dispose()
            return (sink, Disposables.create())
        }
        return (sink, source.subscribe(node: sink))
    }
}

private final class DeferredSink<Element>: Sink<Element, Element> {
    override func onNext(_ element: Element) {
        forwardNext(element)
    }
}
