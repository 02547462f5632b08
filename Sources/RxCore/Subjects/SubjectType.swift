/// A sequence that is also an observer: events sent to ``asObserver()`` go to its
/// subscribers.
public protocol SubjectType: ObservableType {
    /// The observer type that feeds the subject.
    associatedtype Observer: ObserverType

    /// The observer that feeds this subject.
    func asObserver() -> Observer
}
