// Binding a sequence to relays, as RxRelay's `Observable+Bind.swift`.
//
// Only `next` is forwarded; `completed` is ignored (a relay never terminates). An error
// is a programmer error: RxSwift traps in debug builds, but a Bindery server hosts other
// sessions, so the error goes to `Hooks.bindingErrorHandler` (the hook every binding
// reports to; the server layer shows it to the session's client) and nothing traps.

extension ObservableType {
    /// Sends each element to every relay; errors go to ``Hooks/bindingErrorHandler``,
    /// `completed` is ignored.
    public func bind(to relays: PublishRelay<Element>...) -> Disposable {
        bindRelayInputs(relays.map(\.inputNode))
    }

    /// Sends each element, as an optional, to every relay; errors go to
    /// ``Hooks/bindingErrorHandler``, `completed` is ignored.
    public func bind(to relays: PublishRelay<Element?>...) -> Disposable {
        map { $0 as Element? }.bindRelayInputs(relays.map(\.inputNode))
    }

    /// Makes each element the value of every relay; errors go to
    /// ``Hooks/bindingErrorHandler``, `completed` is ignored.
    public func bind(to relays: BehaviorRelay<Element>...) -> Disposable {
        bindRelayInputs(relays.map(\.inputNode))
    }

    /// Makes each element, as an optional, the value of every relay; errors go to
    /// ``Hooks/bindingErrorHandler``, `completed` is ignored.
    public func bind(to relays: BehaviorRelay<Element?>...) -> Disposable {
        map { $0 as Element? }.bindRelayInputs(relays.map(\.inputNode))
    }

    /// Sends each element to every relay; errors go to ``Hooks/bindingErrorHandler``,
    /// `completed` is ignored.
    public func bind(to relays: ReplayRelay<Element>...) -> Disposable {
        bindRelayInputs(relays.map(\.inputNode))
    }

    /// Sends each element, as an optional, to every relay; errors go to
    /// ``Hooks/bindingErrorHandler``, `completed` is ignored.
    public func bind(to relays: ReplayRelay<Element?>...) -> Disposable {
        map { $0 as Element? }.bindRelayInputs(relays.map(\.inputNode))
    }

    func bindRelayInputs(_ inputs: [ObserverNode<Element>]) -> Disposable {
        let observer = RelayBindObserver(inputs)
        if let observable = self as? Observable<Element> {
            return observable.subscribe(node: observer)
        }
        // Another ObservableType (a relay, a test's observable): its own `subscribe`, as
        // RxRelay's bind calls it. The default `asObservable()` wrapper would put a sink
        // between them that, like every subscription, lives until disposed or terminated,
        // and a binding that is never disposed would keep the source alive.
        return subscribe(observer)
    }
}

/// Feeds relays' subjects directly (no `Event` per element) and keeps them alive.
private final class RelayBindObserver<Element>: ObserverNode<Element> {
    /// An ``ObserverBag`` rather than an array: iterating an `Array<ObserverNode<Element>>`
    /// in unspecialised code looks up its metadata on every element.
    private let inputs: ObserverBag

    init(_ inputs: [ObserverNode<Element>]) {
        var bag = ObserverBag()
        for input in inputs {
            _ = bag.insert(input)
        }
        self.inputs = bag
    }

    override func onNext(_ element: Element) {
        inputs.forEach(as: ObserverNode<Element>.self) { $0.onNext(element) }
    }

    override func onError(_ error: Swift.Error) {
        Hooks.bindingErrorHandler(error)
    }

    override func onCompleted() {}
}
