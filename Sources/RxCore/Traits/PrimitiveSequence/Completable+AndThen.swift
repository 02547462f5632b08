extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Never {
    /// Subscribes to `second` once this completable completes; the result is `second`'s.
    public func andThen<Element>(_ second: Single<Element>) -> Single<Element> {
        Single(raw: then(second.source))
    }

    /// Subscribes to `second` once this completable completes; the result is `second`'s.
    public func andThen<Element>(_ second: Maybe<Element>) -> Maybe<Element> {
        Maybe(raw: then(second.source))
    }

    /// Subscribes to `second` once this completable completes.
    public func andThen(_ second: Completable) -> Completable {
        Completable(raw: then(second.source))
    }

    /// Subscribes to `second` once this completable completes; the result is `second`'s.
    public func andThen<Element>(_ second: Observable<Element>) -> Observable<Element> {
        then(second.asObservable())
    }

    /// A completable never sends an element, so its completion is always "empty":
    /// `ifEmpty(switchTo:)` subscribes to `second` then, and an error ends the result.
    private func then<Element>(_ second: Observable<Element>) -> Observable<Element> {
        primitiveSequence.source
            .map(absurd)
            .ifEmpty(switchTo: second)
    }
}

/// Any type from no value: its body is empty, so nothing is "never executed" (a closure
/// `{ (x: Never) in switch x {} }` draws that warning in every build of a user's package).
private func absurd<T>(_ value: Never) -> T {}
