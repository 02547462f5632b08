extension PrimitiveSequenceType where Trait == SingleTrait {
    /// A single of `element`.
    @inlinable
    public static func just(_ element: Element) -> Single<Element> {
        Single(raw: Observable.just(element))
    }

    /// A single of `element`, sent on `scheduler`.
    @inlinable
    public static func just(_ element: Element, scheduler: ImmediateSchedulerType) -> Single<Element> {
        Single(raw: Observable.just(element, scheduler: scheduler))
    }

    /// A single that fails with `error`.
    @inlinable
    public static func error(_ error: Swift.Error) -> Single<Element> {
        Single(raw: Observable.error(error))
    }

    /// A single that never sends anything.
    @inlinable
    public static func never() -> Single<Element> {
        Single(raw: Observable.never())
    }
}

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// Runs side effects around the event and the subscription, passing the event through
    /// (see `ObservableType.do`); a throwing handler fails the single.
    public func `do`(
        onSuccess: ((Element) throws -> Void)? = nil,
        afterSuccess: ((Element) throws -> Void)? = nil,
        onError: ((Swift.Error) throws -> Void)? = nil,
        afterError: ((Swift.Error) throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> Single<Element> {
        Single(raw: primitiveSequence.source.do(
            onNext: onSuccess,
            afterNext: afterSuccess,
            onError: onError,
            afterError: afterError,
            onSubscribe: onSubscribe,
            onSubscribed: onSubscribed,
            onDispose: onDispose
        ))
    }

    /// A maybe of the element if it passes `predicate`, else empty.
    public func filter(_ predicate: @escaping (Element) throws -> Bool) -> Maybe<Element> {
        Maybe(raw: primitiveSequence.source.filter(predicate))
    }

    /// A single of the transformed element.
    public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Single<Result> {
        Single(raw: primitiveSequence.source.map(transform))
    }

    /// A maybe of the transformed element, empty when `transform` returns `nil`.
    public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?) -> Maybe<Result> {
        Maybe(raw: primitiveSequence.source.compactMap(transform))
    }

    /// The single `selector` returns for the element.
    public func flatMap<Result>(_ selector: @escaping (Element) throws -> Single<Result>) -> Single<Result> {
        Single(raw: primitiveSequence.source.flatMap(selector))
    }

    /// The maybe `selector` returns for the element.
    public func flatMapMaybe<Result>(_ selector: @escaping (Element) throws -> Maybe<Result>) -> Maybe<Result> {
        Maybe(raw: primitiveSequence.source.flatMap(selector))
    }

    /// The completable `selector` returns for the element.
    public func flatMapCompletable(_ selector: @escaping (Element) throws -> Completable) -> Completable {
        Completable(raw: primitiveSequence.source.flatMap(selector))
    }

    /// Zips the singles of `collection` into `resultSelector` of their elements; an empty
    /// collection gives `resultSelector([])`.
    public static func zip<Collection: Swift.Collection, Result>(
        _ collection: Collection,
        resultSelector: @escaping ([Element]) throws -> Result
    ) -> PrimitiveSequence<Trait, Result> where Collection.Element == PrimitiveSequence<Trait, Element> {
        if collection.isEmpty {
            return PrimitiveSequence<Trait, Result>.deferred {
                try PrimitiveSequence<Trait, Result>(raw: .just(resultSelector([])))
            }
        }
        return PrimitiveSequence<Trait, Result>(raw: Observable.zip(collection.map { $0.asObservable() }, resultSelector: resultSelector))
    }

    /// Zips the singles of `collection` into an array of their elements; an empty
    /// collection gives `[]`.
    public static func zip<Collection: Swift.Collection>(_ collection: Collection) -> PrimitiveSequence<Trait, [Element]>
    where Collection.Element == PrimitiveSequence<Trait, Element> {
        if collection.isEmpty {
            return PrimitiveSequence<Trait, [Element]>(raw: .just([]))
        }
        return PrimitiveSequence<Trait, [Element]>(raw: Observable.zip(collection.map { $0.asObservable() }))
    }

    /// On error, succeeds with `element` instead.
    public func catchAndReturn(_ element: Element) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: primitiveSequence.source.catchAndReturn(element))
    }

    /// On error, succeeds with `element` instead.
    @available(*, deprecated, renamed: "catchAndReturn(_:)")
    public func catchErrorJustReturn(_ element: Element) -> PrimitiveSequence<Trait, Element> {
        catchAndReturn(element)
    }

    /// This single as a maybe.
    public func asMaybe() -> Maybe<Element> {
        Maybe(raw: primitiveSequence.source)
    }

    /// This single as a completable, dropping the element.
    public func asCompletable() -> Completable {
        primitiveSequence.source.ignoreElements().asCompletable()
    }
}
