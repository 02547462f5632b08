/// Receives the events of an observable sequence.
public protocol ObserverType {
    /// The type of the elements received.
    associatedtype Element

    /// Delivers one event.
    func on(_ event: Event<Element>)
}

extension ObserverType {
    /// Delivers `next(element)`.
    public func onNext(_ element: Element) {
        self.on(.next(element))
    }

    /// Delivers `completed`.
    public func onCompleted() {
        self.on(.completed)
    }

    /// Delivers `error(error)`.
    public func onError(_ error: Swift.Error) {
        self.on(.error(error))
    }
}
