extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Swift.Never {
    /// A completable that fails with `error`.
    public static func error(_ error: Swift.Error) -> Completable {
        Completable(raw: Observable.error(error))
    }

    /// A completable that never terminates.
    public static func never() -> Completable {
        Completable(raw: Observable.never())
    }

    /// A completable that completes at once.
    public static func empty() -> Completable {
        Completable(raw: Observable.empty())
    }
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Swift.Never {
    /// Runs side effects around the terminal event and the subscription, passing it
    /// through (see `ObservableType.do`); a throwing handler fails the completable.
    public func `do`(
        onError: ((Swift.Error) throws -> Void)? = nil,
        afterError: ((Swift.Error) throws -> Void)? = nil,
        onCompleted: (() throws -> Void)? = nil,
        afterCompleted: (() throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> Completable {
        Completable(raw: primitiveSequence.source.do(
            onError: onError,
            afterError: afterError,
            onCompleted: onCompleted,
            afterCompleted: afterCompleted,
            onSubscribe: onSubscribe,
            onSubscribed: onSubscribed,
            onDispose: onDispose
        ))
    }

    /// Subscribes to `second` once this completable completes.
    public func concat(_ second: Completable) -> Completable {
        Completable.concat(primitiveSequence, second)
    }

    /// Runs the completables one after another; the first error ends it.
    public static func concat<Sequence: Swift.Sequence>(_ sequence: Sequence) -> Completable where Sequence.Element == Completable {
        Completable(raw: Observable.concat(sequence.lazy.map { $0.asObservable() }))
    }

    /// Runs the completables one after another; the first error ends it.
    public static func concat<Collection: Swift.Collection>(_ collection: Collection) -> Completable where Collection.Element == Completable {
        Completable(raw: Observable.concat(collection.map { $0.asObservable() }))
    }

    /// Runs the completables one after another; the first error ends it.
    public static func concat(_ sources: Completable...) -> Completable {
        Completable(raw: Observable.concat(sources.map { $0.asObservable() }))
    }

    /// Runs the completables at once; completes when all have, the first error ends it.
    /// For completables `zip` and `merge` are the same.
    public static func zip<Collection: Swift.Collection>(_ sources: Collection) -> Completable where Collection.Element == Completable {
        Completable(raw: Observable.merge(sources.map { $0.asObservable() }))
    }

    /// Runs the completables at once; completes when all have, the first error ends it.
    public static func zip(_ sources: [Completable]) -> Completable {
        Completable(raw: Observable.merge(sources.map { $0.asObservable() }))
    }

    /// Runs the completables at once; completes when all have, the first error ends it.
    public static func zip(_ sources: Completable...) -> Completable {
        Completable(raw: Observable.merge(sources.map { $0.asObservable() }))
    }

    /// Runs the completables at once; completes when all have, the first error ends it.
    @available(*, deprecated, renamed: "zip(_:)")
    public static func merge<Collection: Swift.Collection>(_ sources: Collection) -> Completable where Collection.Element == Completable {
        zip(sources)
    }

    /// Runs the completables at once; completes when all have, the first error ends it.
    @available(*, deprecated, renamed: "zip(_:)")
    public static func merge(_ sources: [Completable]) -> Completable {
        zip(sources)
    }

    /// Runs the completables at once; completes when all have, the first error ends it.
    @available(*, deprecated, renamed: "zip(_:)")
    public static func merge(_ sources: Completable...) -> Completable {
        zip(sources)
    }
}
