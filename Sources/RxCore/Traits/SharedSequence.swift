/// A sequence that never errors, delivers on the main loop and shares one subscription
/// among its subscribers. `Driver` and `Signal` are its two flavours.
public struct SharedSequence<SharingStrategy: SharingStrategyProtocol, Element>: SharedSequenceConvertibleType, ObservableConvertibleType {
    let source: Observable<Element>

    /// Wraps `source`, shared the strategy's way. `source` must not error and must
    /// deliver on the main loop; the `asDriver`/`asSignal` conversions guarantee both.
    init(_ source: Observable<Element>) {
        self.source = SharingStrategy.share(source)
    }

    init(raw: Observable<Element>) {
        self.source = raw
    }

    /// The underlying observable.
    public func asObservable() -> Observable<Element> {
        source
    }

    /// This sequence.
    public func asSharedSequence() -> SharedSequence<SharingStrategy, Element> {
        self
    }
}

/// How a ``SharedSequence`` flavour shares and where it delivers.
public protocol SharingStrategyProtocol {
    /// The scheduler elements are delivered on.
    static var scheduler: SchedulerType { get }

    /// Shares `source` this flavour's way.
    static func share<Element>(_ source: Observable<Element>) -> Observable<Element>
}

/// Something that can be turned into a ``SharedSequence``.
public protocol SharedSequenceConvertibleType: ObservableConvertibleType {
    /// The sharing flavour.
    associatedtype SharingStrategy: SharingStrategyProtocol

    /// This value as a shared sequence.
    func asSharedSequence() -> SharedSequence<SharingStrategy, Element>
}

extension SharedSequenceConvertibleType {
    /// The underlying observable.
    public func asObservable() -> Observable<Element> {
        asSharedSequence().asObservable()
    }
}

extension SharedSequence {
    /// A sequence of one element, then completed.
    public static func just(_ element: Element) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: Observable.just(element, scheduler: SharingStrategy.scheduler))
    }

    /// A sequence that completes at once.
    public static func empty() -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: Observable.empty().subscribe(on: SharingStrategy.scheduler))
    }

    /// A sequence that never emits.
    public static func never() -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: Observable.never())
    }

    /// A sequence of the given elements.
    public static func of(_ elements: Element...) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: Observable.from(elements, scheduler: SharingStrategy.scheduler))
    }

    /// A sequence of the array's elements.
    public static func from(_ array: [Element]) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: Observable.from(array, scheduler: SharingStrategy.scheduler))
    }

    /// A sequence of the elements of `sequence`.
    public static func from<Sequence: Swift.Sequence>(_ sequence: Sequence) -> SharedSequence<SharingStrategy, Element> where Sequence.Element == Element {
        SharedSequence(raw: Observable.from(sequence, scheduler: SharingStrategy.scheduler))
    }

    /// A sequence of the optional's value, if any.
    public static func from(optional: Element?) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: Observable.from(optional: optional, scheduler: SharingStrategy.scheduler))
    }

    /// A sequence made fresh for each subscriber.
    public static func deferred(_ factory: @escaping () -> SharedSequence<SharingStrategy, Element>) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.deferred { factory().asObservable() })
    }
}

extension SharedSequence where Element: FixedWidthInteger {
    /// Emits 0, 1, 2, … every `period` on the sharing scheduler.
    public static func interval(_ period: RxTimeInterval) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.interval(period, scheduler: SharingStrategy.scheduler))
    }

    /// Emits after `dueTime`, then every `period` if given.
    public static func timer(_ dueTime: RxTimeInterval, period: RxTimeInterval? = nil) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.timer(dueTime, period: period, scheduler: SharingStrategy.scheduler))
    }
}

extension ObservableConvertibleType {
    /// A shared sequence of `sharingStrategy`'s flavour that replaces an error with
    /// `onErrorJustReturn` and completes.
    public func asSharedSequence<S: SharingStrategyProtocol>(sharingStrategy: S.Type = S.self, onErrorJustReturn: Element) -> SharedSequence<S, Element> {
        SharedSequence(asObservable().observe(on: S.scheduler).catchAndReturn(onErrorJustReturn))
    }

    /// A shared sequence of `sharingStrategy`'s flavour that continues with
    /// `onErrorDriveWith` after an error.
    public func asSharedSequence<S: SharingStrategyProtocol>(sharingStrategy: S.Type = S.self, onErrorDriveWith: SharedSequence<S, Element>) -> SharedSequence<S, Element> {
        SharedSequence(asObservable().observe(on: S.scheduler).catch { _ in onErrorDriveWith.asObservable() })
    }

    /// A shared sequence of `sharingStrategy`'s flavour that continues with the sequence
    /// `onErrorRecover` returns for the error.
    public func asSharedSequence<S: SharingStrategyProtocol>(sharingStrategy: S.Type = S.self, onErrorRecover: @escaping (_ error: Swift.Error) -> SharedSequence<S, Element>) -> SharedSequence<S, Element> {
        SharedSequence(asObservable().observe(on: S.scheduler).catch { onErrorRecover($0).asObservable() })
    }
}
