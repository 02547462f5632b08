/// A type that can be turned into an `Observable`.
public protocol ObservableConvertibleType {
    /// The type of the elements of the sequence.
    associatedtype Element

    /// The sequence as an `Observable`.
    func asObservable() -> Observable<Element>
}
