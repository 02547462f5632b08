import RxCore

/// A two-way view-model property: the view model reads and writes `x`; views get `$x`,
/// which is both an observable of the value (current value first) and an observer that
/// sets it — and nothing else.
///
/// ```swift
/// final class LoginViewModel {
///     @SubjectProperty var email = ""
/// }
/// viewModel.$email.bind(to: emailField.rx.text)
/// emailField.rx.text.orEmpty.bind(to: viewModel.$email)
/// ```
/// Each new value, from either side, is sent to `$x`'s subscribers and reported to the
/// ``delegate`` with the property's `key`. Like the widgets, a view model is confined to
/// the main loop.
@propertyWrapper
public final class SubjectProperty<Element> {
    /// The value. Setting it notifies `$x`'s subscribers, then the ``delegate``.
    public var wrappedValue: Element {
        didSet {
            subject.onNext(wrappedValue)
            delegate?.didChanged(key: key)
        }
    }

    /// Told after each change, with ``key``.
    public weak var delegate: BindableObject?

    /// The key passed to the ``delegate``: the one given (a key path to the property,
    /// say), else this wrapper's identity.
    public var key: AnyHashable {
        givenKey ?? AnyHashable(ObjectIdentifier(self))
    }

    private let givenKey: AnyHashable?
    private let subject: BehaviorSubject<Element>

    /// A property holding `wrappedValue`.
    public init(wrappedValue: Element) {
        self.wrappedValue = wrappedValue
        self.subject = BehaviorSubject(value: wrappedValue)
        self.givenKey = nil
    }

    /// A property holding `wrappedValue`, reported to the delegate as `key`.
    public init(wrappedValue: Element, key: AnyHashable) {
        self.wrappedValue = wrappedValue
        self.subject = BehaviorSubject(value: wrappedValue)
        self.givenKey = key
    }

    /// `$x`: observe the value and set it, nothing more.
    public var projectedValue: Projection {
        Projection(property: self)
    }

    /// What views see of a ``SubjectProperty``: an observable of its value (current
    /// value first) and an observer whose `next` elements set it. `completed` and
    /// errors are ignored: a view's sequence ending does not end the view model's value.
    public struct Projection: ObservableType, ObserverType {
        let property: SubjectProperty<Element>

        /// Subscribes `observer` to the current value and each later one.
        public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
            property.subject.subscribe(observer)
        }

        /// Sets the property's value from `next`.
        public func on(_ event: Event<Element>) {
            if case .next(let value) = event {
                property.wrappedValue = value
            }
        }

        /// The values as an `Observable`.
        public func asObservable() -> Observable<Element> {
            property.subject.asObservable()
        }
    }
}
