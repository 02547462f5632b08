/// An observable sequence: something observers subscribe to.
public protocol ObservableType: ObservableConvertibleType {
    /// Subscribes `observer` to the events of this sequence.
    ///
    /// - Returns: a disposable that ends the subscription.
    func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element
}

extension ObservableType {
    /// Wraps this sequence as an `Observable`.
    public func asObservable() -> Observable<Element> {
        Observable.create { observer in self.subscribe(observer) }
    }
}
