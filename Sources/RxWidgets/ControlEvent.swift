import RxCore

/// A sequence of control events (a tap, an edit), as in RxCocoa.
///
/// It never errors, sends no initial value, is subscribed on the main loop, and
/// completes when its control is deinitialised.
public protocol ControlEventType: ObservableType {
    /// This sequence as a ``ControlEvent``.
    func asControlEvent() -> ControlEvent<Element>
}

/// A trait for UI events, as in RxCocoa: never errors, no initial value, subscribed on
/// the main loop (synchronously when already there), completes on deallocation.
///
/// Only a user's action makes a control send an event; setting a property in code never
/// does (so two-way bindings cannot echo).
public struct ControlEvent<PropertyType>: ControlEventType {
    /// The element type.
    public typealias Element = PropertyType

    let events: Observable<PropertyType>

    /// Wraps `events`, which must follow the trait's rules (no error; complete when the
    /// control goes away). Subscriptions are made on the main loop.
    public init<Ev: ObservableType>(events: Ev) where Ev.Element == Element {
        self.events = events.subscribe(on: ConcurrentMainScheduler.instance)
    }

    /// Subscribes `observer` to the events.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        events.subscribe(observer)
    }

    /// The events as an `Observable`.
    public func asObservable() -> Observable<Element> {
        events
    }

    /// This event sequence.
    public func asControlEvent() -> ControlEvent<Element> {
        self
    }
}
