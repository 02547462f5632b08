import RxCore

/// A two-way UI property (a text field's text, a slider's value), as in RxCocoa.
public protocol ControlPropertyType: ObservableType, ObserverType {
    /// This property as a ``ControlProperty``.
    func asControlProperty() -> ControlProperty<Element>
}

/// A trait for two-way UI properties, as in RxCocoa.
///
/// As an observable it sends the current value on subscription and then each value the
/// *user* sets (programmatic changes are not reported, so binding a property to itself
/// through a view model cannot loop), never errors, and completes when the control is
/// deinitialised. It is subscribed on the main loop, synchronously when already there.
///
/// As an observer it writes elements to the control through its value sink (a
/// ``Binder``). `completed` is passed to the sink (which ignores it); an error is a
/// programming mistake: it goes to `Hooks.bindingErrorHandler` (RxSwift traps in debug
/// builds; a server hosting other sessions must not).
public struct ControlProperty<PropertyType>: ControlPropertyType {
    /// The element type.
    public typealias Element = PropertyType

    let values: Observable<PropertyType>
    let valueSink: AnyObserver<PropertyType>

    /// A property reading `values` (which should replay the current value and complete
    /// on deallocation) and writing to `valueSink`.
    public init<Values: ObservableType, Sink: ObserverType>(
        values: Values,
        valueSink: Sink
    ) where Element == Values.Element, Element == Sink.Element {
        self.values = values.subscribe(on: ConcurrentMainScheduler.instance)
        self.valueSink = valueSink.asObserver()
    }

    /// Subscribes `observer` to the current value and later user changes.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        values.subscribe(observer)
    }

    /// The user's changes only: the values without the current one sent on subscription
    /// (`skip(1)`), as a ``ControlEvent``.
    public var changed: ControlEvent<PropertyType> {
        ControlEvent(events: values.skip(1))
    }

    /// The values as an `Observable`.
    public func asObservable() -> Observable<Element> {
        values
    }

    /// This property.
    public func asControlProperty() -> ControlProperty<Element> {
        self
    }

    /// Writes `next` elements to the control; `completed` goes to the sink; an error is
    /// reported to `Hooks.bindingErrorHandler`.
    public func on(_ event: Event<Element>) {
        switch event {
        case .error(let error):
            Hooks.bindingErrorHandler(error)
        case .next, .completed:
            valueSink.on(event)
        }
    }
}

extension ControlPropertyType where Element == String? {
    /// The property with `nil` read as `""` (`text.orEmpty`), as in RxCocoa.
    public var orEmpty: ControlProperty<String> {
        let original: ControlProperty<String?> = asControlProperty()
        let values: Observable<String> = original.values.map { $0 ?? "" }
        let valueSink: AnyObserver<String> = original.valueSink.mapObserver { $0 }
        return ControlProperty<String>(values: values, valueSink: valueSink)
    }
}
