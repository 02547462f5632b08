extension ObservableConvertibleType {
    /// This sequence as an infallible that, on error, sends `element` and completes.
    public func asInfallible(onErrorJustReturn element: Element) -> Infallible<Element> {
        Infallible(asObservable().catchAndReturn(element))
    }

    /// This sequence as an infallible that, on error, continues with `infallible`.
    public func asInfallible(onErrorFallbackTo infallible: Infallible<Element>) -> Infallible<Element> {
        Infallible(asObservable().catch { _ in infallible.asObservable() })
    }

    /// This sequence as an infallible that, on error, continues with the infallible
    /// `handler` returns for it.
    public func asInfallible(onErrorRecover handler: @escaping (Swift.Error) -> Infallible<Element>) -> Infallible<Element> {
        Infallible(asObservable().catch { handler($0).asObservable() })
    }
}

extension InfallibleType {
    /// This sequence as an ``Infallible``.
    public func asInfallible() -> Infallible<Element> {
        Infallible(asObservable())
    }
}

extension SharedSequenceConvertibleType {
    /// This driver or signal as an ``Infallible`` (it can't error); it keeps its sharing and
    /// its scheduler.
    public func asInfallible() -> Infallible<Element> {
        Infallible(asObservable())
    }
}
