/// A type-erased observer that forwards every event to a handler.
///
/// Sendable so `create` closures can hand it to other threads; the Rx grammar, which
/// callers must keep (no concurrent events), is what makes that safe, as in RxSwift.
public struct AnyObserver<Element>: ObserverType, @unchecked Sendable {
    /// The handler that receives the events.
    public typealias EventHandler = (Event<Element>) -> Void

    private let observer: EventHandler
    /// Set when this wraps one of RxCore's own observers: events then go to it directly.
    private let node: ObserverNode<Element>?

    /// An observer that calls `eventHandler` for each event.
    public init(eventHandler: @escaping EventHandler) {
        self.observer = eventHandler
        self.node = nil
    }

    /// An observer that forwards to `observer`.
    public init<Observer: ObserverType>(_ observer: Observer) where Observer.Element == Element {
        self.observer = observer.on
        self.node = observer as? ObserverNode<Element>
    }

    /// Delivers one event to the handler.
    public func on(_ event: Event<Element>) {
        if let node {
            node.on(event)
        } else {
            observer(event)
        }
    }

    /// Delivers one element, as `on(.next(element))` does; to one of RxCore's own
    /// observers without building the `Event` (a `create` closure's hot path).
    public func onNext(_ element: Element) {
        if let node {
            node.onNext(element)
        } else {
            observer(.next(element))
        }
    }

    /// This observer.
    public func asObserver() -> AnyObserver<Element> {
        self
    }
}

extension ObserverType {
    /// This observer, type-erased.
    public func asObserver() -> AnyObserver<Element> {
        AnyObserver(self)
    }

    /// An observer that transforms elements with `transform` before passing them on.
    public func mapObserver<Result>(_ transform: @escaping (Result) throws -> Element) -> AnyObserver<Result> {
        AnyObserver { event in self.on(event.map(transform)) }
    }
}
