extension ObservableType {
    /// A sequence that depends on a resource: each subscription creates the resource with
    /// `resourceFactory`, subscribes to `observableFactory(resource)`, and disposes the
    /// resource together with that subscription. A throwing factory ends the sequence with
    /// its error (a resource already created is still disposed).
    public static func using<Resource: Disposable>(
        _ resourceFactory: @escaping () throws -> Resource,
        observableFactory: @escaping (Resource) throws -> Observable<Element>
    ) -> Observable<Element> {
        Using(resourceFactory: resourceFactory, observableFactory: observableFactory)
    }
}

private final class Using<Element, Resource: Disposable>: Producer<Element> {
    private let resourceFactory: () throws -> Resource
    private let observableFactory: (Resource) throws -> Observable<Element>

    init(resourceFactory: @escaping () throws -> Resource, observableFactory: @escaping (Resource) throws -> Observable<Element>) {
        self.resourceFactory = resourceFactory
        self.observableFactory = observableFactory
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = UsingSink(observer: observer, cancel: cancel)
        var resource: Disposable = Disposables.create()
        let source: Observable<Element>
        do {
            let created = try resourceFactory()
            resource = created
            source = try observableFactory(created)
        } catch {
            source = Observable.error(error)
        }
        let subscription = Disposables.create(source.subscribe(node: sink), resource)
        return (sink, subscription)
    }
}

private final class UsingSink<Element>: Sink<Element, Element> {
    override func onNext(_ element: Element) {
        forwardNext(element)
    }
}
