/// A resource that can be released; for a subscription, disposing ends it.
public protocol Disposable {
    /// Releases the resource. Calling it again has no effect.
    func dispose()
}

/// A disposable that knows whether it has been disposed.
public protocol Cancelable: Disposable {
    /// `true` once disposed.
    var isDisposed: Bool { get }
}
