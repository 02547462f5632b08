/// A sequence that shares one subscription to its source, made by ``connect()`` rather
/// than by subscribing.
public protocol ConnectableObservableType: ObservableType {
    /// Subscribes the shared subject to the source.
    ///
    /// - Returns: a disposable that disconnects.
    func connect() -> Disposable
}
