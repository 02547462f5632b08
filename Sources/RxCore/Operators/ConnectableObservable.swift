/// The type-erased ``ConnectableObservableType`` returned by `multicast`, `publish` and
/// `replay`.
public class ConnectableObservable<Element>: Observable<Element>, ConnectableObservableType {
    override init() {
        super.init()
    }

    /// Subscribes the shared subject to the source.
    ///
    /// - Returns: a disposable that disconnects.
    public func connect() -> Disposable {
        rxAbstractMethod()
    }
}
