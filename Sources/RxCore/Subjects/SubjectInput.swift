/// The Event-free input of Bindery's subjects, so an internal connection (multicast,
/// relay binding) can feed one without building an `Event` per element.
protocol SubjectInput<Element>: AnyObject {
    associatedtype Element

    /// Sends one element.
    func onNext(_ element: Element)

    /// Sends one event (used for the terminal ones).
    func on(_ event: Event<Element>)
}

/// An internal node for `observer`: feeds Bindery's subjects directly, wraps anything
/// else in an ``ObserverAdapter``.
func makeObserverNode<Observer: ObserverType>(_ observer: Observer) -> ObserverNode<Observer.Element> {
    if let subject = observer as? any SubjectInput<Observer.Element> {
        return SubjectInputNode(subject)
    }
    return ObserverAdapter(observer)
}
