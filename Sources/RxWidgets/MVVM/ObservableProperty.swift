import RxCore

/// A one-way view-model property: only the view model writes `x`; views get `$x`, an
/// `Observable` of its value (current value first, then each change).
///
/// ```swift
/// final class ListViewModel {
///     @ObservableProperty private(set) var repos: [Repo] = []
/// }
/// viewModel.$repos.bind(to: list.rx.items) { ... }
/// ```
/// Like the widgets, a view model is confined to the main loop.
@propertyWrapper
public final class ObservableProperty<Element> {
    /// The value. Setting it sends the new value to `$x`'s subscribers.
    public var wrappedValue: Element {
        didSet {
            subject.onNext(wrappedValue)
        }
    }

    private let subject: BehaviorSubject<Element>

    /// A property holding `wrappedValue`.
    public init(wrappedValue: Element) {
        self.wrappedValue = wrappedValue
        self.subject = BehaviorSubject(value: wrappedValue)
    }

    /// `$x`: the value, current first, then each change.
    public var projectedValue: Observable<Element> {
        subject.asObservable()
    }
}
