/// Bindery's subjects: each can hand out a node that feeds it directly, so an internal
/// connection (multicast, a relay binding) sends it elements without building an `Event`
/// per element or going through an existential.
protocol SubjectInput<Element>: AnyObject, ObserverType {
    /// Sends one element (the subject's Event-free fast path).
    func onNext(_ element: Element)
}

extension SubjectInput {
    /// A node that forwards to this subject.
    var inputNode: ObserverNode<Element> {
        SubjectInputNode(self)
    }
}

/// An internal node for `observer`: a node as it is, Bindery's subjects fed directly,
/// anything else wrapped in an ``ObserverAdapter``.
func makeObserverNode<Observer: ObserverType>(_ observer: Observer) -> ObserverNode<Observer.Element> {
    if let node = observer as? ObserverNode<Observer.Element> {
        return node
    }
    if let subject = observer as? any SubjectInput<Observer.Element> {
        return subject.inputNode
    }
    return ObserverAdapter(observer)
}
