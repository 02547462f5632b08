/// The internal receiving end of every subscription.
///
/// Operators talk to each other through these three virtual calls, so the per-element
/// path never builds an `Event<T>` (each one needs a generic metadata look-up in
/// unspecialised code). Public observers are wrapped by ``ObserverAdapter``.
class ObserverNode<Element>: ObserverType {
    #if TRACE_RESOURCES
    private let resourceToken = ResourceToken()
    #endif
    init() {}

    func onNext(_ element: Element) { rxAbstractMethod() }
    func onError(_ error: Swift.Error) { rxAbstractMethod() }
    func onCompleted() { rxAbstractMethod() }

    final func on(_ event: Event<Element>) {
        switch event {
        case .next(let element): onNext(element)
        case .error(let error): onError(error)
        case .completed: onCompleted()
        }
    }
}

/// Wraps a public `ObserverType` as a node.
final class ObserverAdapter<Observer: ObserverType>: ObserverNode<Observer.Element> {
    private let observer: Observer

    init(_ observer: Observer) {
        self.observer = observer
    }

    override func onNext(_ element: Element) { observer.on(.next(element)) }
    override func onError(_ error: Swift.Error) { observer.on(.error(error)) }
    override func onCompleted() { observer.on(.completed) }
}

/// A node that calls closures; backs `subscribe(onNext:…)` and `AnyObserver`'s handler.
final class ClosureObserver<Element>: ObserverNode<Element> {
    private let handler: (Event<Element>) -> Void

    init(_ handler: @escaping (Event<Element>) -> Void) {
        self.handler = handler
    }

    override func onNext(_ element: Element) { handler(.next(element)) }
    override func onError(_ error: Swift.Error) { handler(.error(error)) }
    override func onCompleted() { handler(.completed) }
}
