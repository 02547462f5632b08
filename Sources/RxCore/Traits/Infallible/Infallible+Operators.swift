// RxSwift's Infallible operators: each wraps the Observable operator of the same name.
// Closures don't throw (nothing may fail), except where RxSwift's signatures throw.

// MARK: - Creating

extension InfallibleType {
    /// An infallible of `element`.
    public static func just(_ element: Element) -> Infallible<Element> {
        Infallible(Observable.just(element))
    }

    /// An infallible of `element`, sent on `scheduler`.
    public static func just(_ element: Element, scheduler: ImmediateSchedulerType) -> Infallible<Element> {
        Infallible(Observable.just(element, scheduler: scheduler))
    }

    /// An infallible that never sends anything.
    public static func never() -> Infallible<Element> {
        Infallible(Observable.never())
    }

    /// An infallible that completes at once.
    public static func empty() -> Infallible<Element> {
        Infallible(Observable.empty())
    }

    /// Calls `observableFactory` on each subscription and subscribes to its result.
    public static func deferred(_ observableFactory: @escaping () throws -> Infallible<Element>) -> Infallible<Element> {
        Infallible(Observable.deferred { try observableFactory().asObservable() })
    }
}

extension Infallible {
    /// An infallible of `elements`, sent on `scheduler`.
    public static func of(_ elements: Element..., scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Infallible<Element> {
        Infallible(Observable.from(elements, scheduler: scheduler))
    }

    /// An infallible of the array's elements, sent on `scheduler`.
    public static func from(_ array: [Element], scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Infallible<Element> {
        Infallible(Observable.from(array, scheduler: scheduler))
    }

    /// An infallible of the sequence's elements, sent on `scheduler`.
    public static func from<Sequence: Swift.Sequence>(_ sequence: Sequence, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Infallible<Element>
    where Sequence.Element == Element {
        Infallible(Observable.from(sequence, scheduler: scheduler))
    }
}

extension InfallibleType where Element: RxAbstractInteger {
    /// `0, 1, 2, …`, one every `period` on `scheduler`.
    public static func interval(_ period: RxTimeInterval, scheduler: SchedulerType) -> Infallible<Element> {
        Infallible(Observable.interval(period, scheduler: scheduler))
    }

    /// `0` after `dueTime`, then (with a `period`) the next integers every `period`.
    public static func timer(_ dueTime: RxTimeInterval, period: RxTimeInterval? = nil, scheduler: SchedulerType) -> Infallible<Element> {
        Infallible(Observable.timer(dueTime, period: period, scheduler: scheduler))
    }
}

// MARK: - Transforming and filtering

extension InfallibleType {
    /// The elements that pass `predicate`.
    public func filter(_ predicate: @escaping (Element) -> Bool) -> Infallible<Element> {
        Infallible(asObservable().filter(predicate))
    }

    /// The transformed elements.
    public func map<Result>(_ transform: @escaping (Element) -> Result) -> Infallible<Result> {
        Infallible(asObservable().map(transform))
    }

    /// The transformed elements that are not `nil`.
    public func compactMap<Result>(_ transform: @escaping (Element) -> Result?) -> Infallible<Result> {
        Infallible(asObservable().compactMap(transform))
    }

    /// Each intermediate result of `accumulator`, mutating the accumulator in place.
    public func scan<Seed>(into seed: Seed, accumulator: @escaping (inout Seed, Element) -> Void) -> Infallible<Seed> {
        Infallible(asObservable().scan(into: seed, accumulator: accumulator))
    }

    /// Each intermediate result of `accumulator`.
    public func scan<Seed>(_ seed: Seed, accumulator: @escaping (Seed, Element) -> Seed) -> Infallible<Seed> {
        Infallible(asObservable().scan(seed, accumulator: accumulator))
    }

    /// `element`, then this sequence.
    public func startWith(_ element: Element) -> Infallible<Element> {
        Infallible(asObservable().startWith(element))
    }
}

extension InfallibleType where Element: Equatable {
    /// The elements that differ from the previous one.
    public func distinctUntilChanged() -> Infallible<Element> {
        Infallible(asObservable().distinctUntilChanged())
    }
}

extension InfallibleType {
    /// The elements whose key differs from the previous element's.
    public func distinctUntilChanged<Key: Equatable>(_ keySelector: @escaping (Element) throws -> Key) -> Infallible<Element> {
        Infallible(asObservable().distinctUntilChanged(keySelector, comparer: { $0 == $1 }))
    }

    /// The elements that `comparer` finds different from the previous one.
    public func distinctUntilChanged(_ comparer: @escaping (Element, Element) throws -> Bool) -> Infallible<Element> {
        Infallible(asObservable().distinctUntilChanged(comparer))
    }

    /// The elements whose key `comparer` finds different from the previous element's.
    public func distinctUntilChanged<Key>(_ keySelector: @escaping (Element) throws -> Key, comparer: @escaping (Key, Key) throws -> Bool) -> Infallible<Element> {
        Infallible(asObservable().distinctUntilChanged(keySelector, comparer: comparer))
    }

    /// The elements whose value at `keyPath` differs from the previous element's.
    public func distinctUntilChanged<Property: Equatable>(at keyPath: KeyPath<Element, Property>) -> Infallible<Element> {
        Infallible(asObservable().distinctUntilChanged(at: keyPath))
    }
}

// MARK: - Time

extension InfallibleType {
    /// Each element that no other follows within `dueTime`.
    public func debounce(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Infallible<Element> {
        Infallible(asObservable().debounce(dueTime, scheduler: scheduler))
    }

    /// At most one element per `dueTime` (the first, and with `latest` the last of the window).
    public func throttle(_ dueTime: RxTimeInterval, latest: Bool = true, scheduler: SchedulerType) -> Infallible<Element> {
        Infallible(asObservable().throttle(dueTime, latest: latest, scheduler: scheduler))
    }
}

// MARK: - Flattening

extension InfallibleType {
    /// Merges the sequences `selector` returns for each element.
    public func flatMap<Source: ObservableConvertibleType>(_ selector: @escaping (Element) -> Source) -> Infallible<Source.Element> {
        Infallible(asObservable().flatMap(selector))
    }

    /// The elements of the sequence `selector` returned for the latest element.
    public func flatMapLatest<Source: ObservableConvertibleType>(_ selector: @escaping (Element) -> Source) -> Infallible<Source.Element> {
        Infallible(asObservable().flatMapLatest(selector))
    }

    /// The sequence `selector` returns for an element, ignoring elements while it runs.
    public func flatMapFirst<Source: ObservableConvertibleType>(_ selector: @escaping (Element) -> Source) -> Infallible<Source.Element> {
        Infallible(asObservable().flatMapFirst(selector))
    }

    /// The sequences `selector` returns for each element, one after another.
    public func concatMap<Source: ObservableConvertibleType>(_ selector: @escaping (Element) -> Source) -> Infallible<Source.Element> {
        Infallible(asObservable().concatMap(selector))
    }
}

// MARK: - Combining

extension InfallibleType {
    /// This sequence, then `second`.
    public func concat<Source: ObservableConvertibleType>(_ second: Source) -> Infallible<Element> where Source.Element == Element {
        Infallible(Observable.concat([asObservable(), second.asObservable()]))
    }

    /// The sequences one after another.
    public static func concat<Sequence: Swift.Sequence>(_ sequence: Sequence) -> Infallible<Element> where Sequence.Element == Infallible<Element> {
        Infallible(Observable.concat(sequence.map { $0.asObservable() }))
    }

    /// The sequences one after another.
    public static func concat<Collection: Swift.Collection>(_ collection: Collection) -> Infallible<Element> where Collection.Element == Infallible<Element> {
        Infallible(Observable.concat(collection.map { $0.asObservable() }))
    }

    /// The sequences one after another.
    public static func concat(_ sources: Infallible<Element>...) -> Infallible<Element> {
        Infallible(Observable.concat(sources.map { $0.asObservable() }))
    }

    /// The elements of all the sequences as they come.
    public static func merge<Collection: Swift.Collection>(_ sources: Collection) -> Infallible<Element> where Collection.Element == Infallible<Element> {
        Infallible(Observable.merge(sources.map { $0.asObservable() }))
    }

    /// The elements of all the sequences as they come.
    public static func merge(_ sources: [Infallible<Element>]) -> Infallible<Element> {
        Infallible(Observable.merge(sources.map { $0.asObservable() }))
    }

    /// The elements of all the sequences as they come.
    public static func merge(_ sources: Infallible<Element>...) -> Infallible<Element> {
        Infallible(Observable.merge(sources.map { $0.asObservable() }))
    }

    /// `resultSelector` applied to each element and the latest element of `second`, once
    /// `second` has one.
    public func withLatestFrom<Source: InfallibleType, ResultType>(_ second: Source, resultSelector: @escaping (Element, Source.Element) throws -> ResultType) -> Infallible<ResultType> {
        Infallible(asObservable().withLatestFrom(second.asObservable(), resultSelector: resultSelector))
    }

    /// The latest element of `second` at each element, once `second` has one.
    public func withLatestFrom<Source: InfallibleType>(_ second: Source) -> Infallible<Source.Element> {
        withLatestFrom(second) { $1 }
    }
}

// MARK: - Side effects and sharing

extension Infallible {
    /// Runs side effects around the events and the subscription, passing the events through.
    public func `do`(
        onNext: ((Element) throws -> Void)? = nil,
        afterNext: ((Element) throws -> Void)? = nil,
        onCompleted: (() throws -> Void)? = nil,
        afterCompleted: (() throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> Infallible<Element> {
        Infallible(asObservable().do(
            onNext: onNext, afterNext: afterNext,
            onCompleted: onCompleted, afterCompleted: afterCompleted,
            onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose
        ))
    }
}

extension InfallibleType {
    /// Shares one subscription among subscribers, replaying the last `replay` elements.
    public func share(replay: Int = 0, scope: SubjectLifetimeScope = .whileConnected) -> Infallible<Element> {
        Infallible(asObservable().share(replay: replay, scope: scope))
    }

    /// `resultSelector` applied to `obj` (held weakly) and each element; completes once
    /// `obj` is gone.
    public func withUnretained<Object: AnyObject, Out>(_ obj: Object, resultSelector: @escaping (Object, Element) -> Out) -> Infallible<Out> {
        // Built from map + take(while:) so the trait does not wait for the Observable
        // operator; same events.
        Infallible(
            asObservable()
                .map { [weak obj] element -> (Object, Element)? in
                    guard let obj else { return nil }
                    return (obj, element)
                }
                .take(while: { $0 != nil })
                .map { resultSelector($0!.0, $0!.1) }
        )
    }

    /// Pairs of `obj` (held weakly) and each element; completes once `obj` is gone.
    public func withUnretained<Object: AnyObject>(_ obj: Object) -> Infallible<(Object, Element)> {
        withUnretained(obj) { ($0, $1) }
    }
}

// MARK: - Taking and skipping

extension InfallibleType {
    /// The elements until `other` sends one.
    public func take<Source: InfallibleType>(until other: Source) -> Infallible<Element> {
        Infallible(asObservable().take(until: other.asObservable()))
    }

    /// The elements until `other` sends one.
    public func take<Source: ObservableType>(until other: Source) -> Infallible<Element> {
        Infallible(asObservable().take(until: other))
    }

    /// The elements until one passes `predicate` (with it, for `.inclusive`).
    public func take(until predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .exclusive) -> Infallible<Element> {
        Infallible(asObservable().take(until: predicate, behavior: behavior))
    }

    /// The elements while they pass `predicate`.
    public func take(while predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .exclusive) -> Infallible<Element> {
        Infallible(asObservable().take(while: predicate, behavior: behavior))
    }

    /// The first `count` elements.
    public func take(_ count: Int) -> Infallible<Element> {
        Infallible(asObservable().take(count))
    }

    /// The elements sent within `duration` of subscribing.
    public func take(for duration: RxTimeInterval, scheduler: SchedulerType) -> Infallible<Element> {
        Infallible(asObservable().take(until: Observable<Int>.timer(duration, scheduler: scheduler)))
    }

    /// The elements from the first that fails `predicate` on.
    public func skip(while predicate: @escaping (Element) throws -> Bool) -> Infallible<Element> {
        Infallible(asObservable().skip(while: predicate))
    }

    /// The elements after `other` sends one.
    public func skip<Source: ObservableType>(until other: Source) -> Infallible<Element> {
        Infallible(asObservable().skip(until: other))
    }
}
