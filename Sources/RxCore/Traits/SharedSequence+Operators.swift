import Foundation

// Operators that keep a shared sequence a shared sequence of the same flavour. Closures
// do not throw: a Driver or Signal never errors.

extension SharedSequenceConvertibleType {
    /// Transforms each element.
    public func map<Result>(_ transform: @escaping (Element) -> Result) -> SharedSequence<SharingStrategy, Result> {
        SharedSequence(asObservable().map(transform))
    }

    /// Transforms each element, dropping `nil` results.
    public func compactMap<Result>(_ transform: @escaping (Element) -> Result?) -> SharedSequence<SharingStrategy, Result> {
        SharedSequence(asObservable().compactMap(transform))
    }

    /// Keeps the elements that satisfy `predicate`.
    public func filter(_ predicate: @escaping (Element) -> Bool) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().filter(predicate))
    }

    /// Switches to the sequence made from each element, disposing the previous one.
    public func flatMapLatest<Sharing, Result>(_ selector: @escaping (Element) -> SharedSequence<Sharing, Result>) -> SharedSequence<Sharing, Result> {
        SharedSequence(asObservable().flatMapLatest { selector($0).asObservable() })
    }

    /// Ignores elements while the sequence made from the last one is still running.
    public func flatMapFirst<Sharing, Result>(_ selector: @escaping (Element) -> SharedSequence<Sharing, Result>) -> SharedSequence<Sharing, Result> {
        SharedSequence(asObservable().flatMapFirst { selector($0).asObservable() })
    }

    /// Merges the sequences made from each element.
    public func flatMap<Sharing, Result>(_ selector: @escaping (Element) -> SharedSequence<Sharing, Result>) -> SharedSequence<Sharing, Result> {
        SharedSequence(asObservable().flatMap { selector($0).asObservable() })
    }

    /// Runs side effects for each event.
    public func `do`(
        onNext: ((Element) -> Void)? = nil,
        afterNext: ((Element) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        afterCompleted: (() -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().do(
            onNext: onNext, afterNext: afterNext, onCompleted: onCompleted, afterCompleted: afterCompleted,
            onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose))
    }

    /// Emits `elements` first.
    public func startWith(_ elements: Element...) -> SharedSequence<SharingStrategy, Element> {
        var source = asObservable()
        for element in elements.reversed() {
            source = source.startWith(element)
        }
        return SharedSequence(source)
    }

    /// Emits the accumulation of each element into `seed`.
    public func scan<Accumulate>(_ seed: Accumulate, accumulator: @escaping (Accumulate, Element) -> Accumulate) -> SharedSequence<SharingStrategy, Accumulate> {
        SharedSequence(asObservable().scan(seed, accumulator: accumulator))
    }

    /// Skips the first `count` elements.
    public func skip(_ count: Int) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().skip(count))
    }

    /// Emits an element only after `dueTime` passes with no newer one.
    public func debounce(_ dueTime: RxTimeInterval) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().debounce(dueTime, scheduler: SharingStrategy.scheduler))
    }

    /// Emits at most one element per `dueTime`.
    public func throttle(_ dueTime: RxTimeInterval, latest: Bool = true) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().throttle(dueTime, latest: latest, scheduler: SharingStrategy.scheduler))
    }

    /// Delays each element by `dueTime`.
    public func delay(_ dueTime: RxTimeInterval) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().delay(dueTime, scheduler: SharingStrategy.scheduler))
    }

    /// Combines each element with the latest of `second`, which may be of another flavour
    /// (a `Signal` with the latest of a `Driver`).
    public func withLatestFrom<SecondO: SharedSequenceConvertibleType, ResultType>(
        _ second: SecondO,
        resultSelector: @escaping (Element, SecondO.Element) -> ResultType
    ) -> SharedSequence<SharingStrategy, ResultType> {
        SharedSequence(asObservable().withLatestFrom(second.asObservable(), resultSelector: resultSelector))
    }

    /// Each element replaced by the latest of `second`, which may be of another flavour.
    public func withLatestFrom<SecondO: SharedSequenceConvertibleType>(_ second: SecondO) -> SharedSequence<SharingStrategy, SecondO.Element> {
        SharedSequence(asObservable().withLatestFrom(second.asObservable()))
    }
}

extension SharedSequenceConvertibleType where Element: Equatable {
    /// Drops elements equal to the previous one.
    public func distinctUntilChanged() -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().distinctUntilChanged())
    }
}

extension SharedSequenceConvertibleType {
    /// Drops elements whose key equals the previous one's.
    public func distinctUntilChanged<Key: Equatable>(_ keySelector: @escaping (Element) -> Key) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().distinctUntilChanged(keySelector))
    }

    /// Drops elements the comparer calls equal to the previous one.
    public func distinctUntilChanged(_ comparer: @escaping (Element, Element) -> Bool) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().distinctUntilChanged(comparer))
    }
}

extension SharedSequence {
    /// Merges the elements of `sources`.
    public static func merge(_ sources: SharedSequence<SharingStrategy, Element>...) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.merge(sources.map { $0.asObservable() }))
    }

    /// Merges the elements of `sources`.
    public static func merge(_ sources: [SharedSequence<SharingStrategy, Element>]) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.merge(sources.map { $0.asObservable() }))
    }

    /// The latest elements of all sources, once each has one.
    public static func combineLatest<Collection: Swift.Collection>(_ collection: Collection) -> SharedSequence<SharingStrategy, [Element]> where Collection.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence<SharingStrategy, [Element]>(Observable.combineLatest(collection.map { $0.asObservable() }))
    }

    /// Pairs the sources' elements by index.
    public static func zip<Collection: Swift.Collection>(_ collection: Collection) -> SharedSequence<SharingStrategy, [Element]> where Collection.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence<SharingStrategy, [Element]>(Observable.zip(collection.map { $0.asObservable() }))
    }
}

extension SharedSequenceConvertibleType {
    /// Drops elements whose key the comparer calls equal to the previous one's.
    public func distinctUntilChanged<Key>(_ keySelector: @escaping (Element) -> Key, comparer: @escaping (Key, Key) -> Bool) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().distinctUntilChanged(keySelector, comparer: comparer))
    }

    /// Drops elements whose property at `keyPath` equals the previous one's.
    public func distinctUntilChanged<Property: Equatable>(at keyPath: KeyPath<Element, Property>) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().distinctUntilChanged(at: keyPath))
    }

    /// Accumulates into `seed` in place, emitting a copy after each element.
    public func scan<Accumulate>(into seed: Accumulate, accumulator: @escaping (inout Accumulate, Element) -> Void) -> SharedSequence<SharingStrategy, Accumulate> {
        SharedSequence(asObservable().scan(into: seed, accumulator: accumulator))
    }

    /// Prints every subscription, event and disposal (see `Observable.debug`).
    public func debug(_ identifier: String? = nil, trimOutput: Bool = false, file: String = #file, line: UInt = #line, function: String = #function) -> SharedSequence<SharingStrategy, Element> {
        let name = identifier ?? "\((file as NSString).lastPathComponent):\(line) (\(function))"
        return SharedSequence(asObservable().debug(name, trimOutput: trimOutput))
    }

    /// Each element combined by `resultSelector` with `obj`, held weakly; completes once
    /// `obj` is gone.
    public func withUnretained<Object: AnyObject, Out>(_ obj: Object, resultSelector: @escaping (Object, Element) -> Out) -> SharedSequence<SharingStrategy, Out> {
        SharedSequence(asObservable().withUnretained(obj, resultSelector: resultSelector))
    }

    /// Each element paired with `obj`, held weakly; completes once `obj` is gone.
    public func withUnretained<Object: AnyObject>(_ obj: Object) -> SharedSequence<SharingStrategy, (Object, Element)> {
        SharedSequence(asObservable().withUnretained(obj))
    }
}

extension SharedSequenceConvertibleType where Element: SharedSequenceConvertibleType {
    /// Mirrors the latest inner sequence, disposing the previous one.
    public func switchLatest() -> SharedSequence<Element.SharingStrategy, Element.Element> {
        SharedSequence(asObservable().map { $0.asSharedSequence().asObservable() }.switchLatest())
    }

    /// Merges the elements of every inner sequence.
    public func merge() -> SharedSequence<Element.SharingStrategy, Element.Element> {
        SharedSequence(asObservable().map { $0.asSharedSequence().asObservable() }.merge())
    }

    /// Merges the inner sequences, at most `maxConcurrent` subscribed at a time.
    public func merge(maxConcurrent: Int) -> SharedSequence<Element.SharingStrategy, Element.Element> {
        SharedSequence(asObservable().map { $0.asSharedSequence().asObservable() }.merge(maxConcurrent: maxConcurrent))
    }
}

extension SharedSequence {
    /// Merges the elements of every sequence in `sources`.
    public static func merge<Collection: Swift.Collection>(_ sources: Collection) -> SharedSequence<SharingStrategy, Element>
        where Collection.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.merge(sources.map { $0.asObservable() }))
    }

    /// The elements of each sequence of `sequence` in turn.
    public static func concat<Sequence: Swift.Sequence>(_ sequence: Sequence) -> SharedSequence<SharingStrategy, Element>
        where Sequence.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.concat(sequence.lazy.map { $0.asObservable() }))
    }

    /// The elements of each sequence of `collection` in turn.
    public static func concat<Collection: Swift.Collection>(_ collection: Collection) -> SharedSequence<SharingStrategy, Element>
        where Collection.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.concat(collection.map { $0.asObservable() }))
    }

    /// The latest elements of all sources combined by `resultSelector`, once each has one.
    public static func combineLatest<Collection: Swift.Collection, Result>(
        _ collection: Collection,
        resultSelector: @escaping ([Element]) throws -> Result
    ) -> SharedSequence<SharingStrategy, Result> where Collection.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence<SharingStrategy, Result>(Observable.combineLatest(collection.map { $0.asObservable() }, resultSelector: resultSelector))
    }

    /// The sources' elements paired by index, combined by `resultSelector`.
    public static func zip<Collection: Swift.Collection, Result>(
        _ collection: Collection,
        resultSelector: @escaping ([Element]) throws -> Result
    ) -> SharedSequence<SharingStrategy, Result> where Collection.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence<SharingStrategy, Result>(Observable.zip(collection.map { $0.asObservable() }, resultSelector: resultSelector))
    }
}
