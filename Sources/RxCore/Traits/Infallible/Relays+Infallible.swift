// RxRelay's `asInfallible()`: a relay never errors, so it is an infallible as it is.

extension PublishRelay {
    /// This relay as an ``Infallible``: its elements, never an error or a completion.
    public func asInfallible() -> Infallible<Element> {
        Infallible(asObservable())
    }
}

extension BehaviorRelay {
    /// This relay as an ``Infallible``: its current value on subscription, then every new
    /// one; never an error or a completion.
    public func asInfallible() -> Infallible<Element> {
        Infallible(asObservable())
    }
}

extension ReplayRelay {
    /// This relay as an ``Infallible``: its buffered elements on subscription, then every
    /// new one; never an error or a completion.
    public func asInfallible() -> Infallible<Element> {
        Infallible(asObservable())
    }
}
