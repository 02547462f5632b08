import Foundation
import RxCore

/// A virtual-time scheduler for tests, with RxTest's API: hot and cold test observables,
/// recording observers and `start(created:subscribed:disposed:)`.
///
/// One tick is `resolution` seconds (default 1), so `.seconds(20)` is 20 ticks. With
/// `simulateProcessingDelay` (the default), work scheduled for "now" or the past runs one
/// tick later, as in RxTest.
public final class TestScheduler: VirtualTimeScheduler<TestSchedulerVirtualTimeConverter> {
    /// The times `start` uses when not given any (RxTest's `TestScheduler.Defaults`).
    public struct Defaults {
        /// When the sequence is created: 100.
        public static let created: TestTime = 100
        /// When it is subscribed: 200.
        public static let subscribed: TestTime = 200
        /// When the subscription is disposed: 1000.
        public static let disposed: TestTime = 1000
    }

    /// The time `start` creates the sequence at, by default (``Defaults/created``).
    public static let defaultCreated: TestTime = Defaults.created
    /// The time `start` subscribes at, by default (``Defaults/subscribed``).
    public static let defaultSubscribed: TestTime = Defaults.subscribed
    /// The time `start` disposes at, by default (``Defaults/disposed``).
    public static let defaultDisposed: TestTime = Defaults.disposed

    private let simulateProcessingDelay: Bool

    /// A scheduler whose clock starts at `initialClock`; one tick is `resolution` seconds;
    /// with `simulateProcessingDelay`, work scheduled for now runs at `now + 1`.
    public init(initialClock: TestTime, resolution: Double = 1.0, simulateProcessingDelay: Bool = true) {
        self.simulateProcessingDelay = simulateProcessingDelay
        super.init(initialClock: initialClock, converter: TestSchedulerVirtualTimeConverter(resolution: resolution))
    }

    /// Runs `action` at virtual time `time`.
    public func scheduleAt(_ time: TestTime, action: @escaping () -> Void) {
        _ = scheduleAbsoluteVirtual((), time: time) { _ in
            action()
            return Disposables.create()
        }
    }

    /// An observable that emits `events` at their times whether or not anyone subscribes.
    public func createHotObservable<Element>(_ events: [Recorded<Event<Element>>]) -> TestableObservable<Element> {
        HotObservable(testScheduler: self, recordedEvents: events)
    }

    /// An observable that emits `events` at their times relative to each subscription.
    public func createColdObservable<Element>(_ events: [Recorded<Event<Element>>]) -> TestableObservable<Element> {
        ColdObservable(testScheduler: self, recordedEvents: events)
    }

    /// An observer that records each event with the virtual time it arrived.
    public func createObserver<Element>(_ type: Element.Type) -> TestableObserver<Element> {
        TestableObserver(scheduler: self)
    }

    /// Subscribes a recording observer to `source` now; adds the subscription to `disposeBag`.
    public func record<Source: ObservableConvertibleType>(_ source: Source, disposeBag: DisposeBag? = nil) -> TestableObserver<Source.Element> {
        let observer = createObserver(Source.Element.self)
        let disposable = source.asObservable().bind(to: observer)
        if let disposeBag {
            disposable.disposed(by: disposeBag)
        }
        return observer
    }

    /// Creates the sequence at `created`, subscribes at `subscribed`, disposes at
    /// `disposed`, runs the scheduler and returns what was recorded.
    public func start<Element, OutputSequence: ObservableConvertibleType>(
        created: TestTime,
        subscribed: TestTime,
        disposed: TestTime,
        create: @escaping () -> OutputSequence
    ) -> TestableObserver<Element> where OutputSequence.Element == Element {
        var source: Observable<Element>?
        var subscription: Disposable?
        let observer = createObserver(Element.self)
        scheduleAt(created) { source = create().asObservable() }
        scheduleAt(subscribed) { subscription = source!.subscribe(observer) }
        scheduleAt(disposed) { subscription!.dispose() }
        start()
        return observer
    }

    /// `start` with the default creation (100) and subscription (200) times.
    public func start<Element, OutputSequence: ObservableConvertibleType>(
        disposed: TestTime,
        create: @escaping () -> OutputSequence
    ) -> TestableObserver<Element> where OutputSequence.Element == Element {
        start(created: Self.defaultCreated, subscribed: Self.defaultSubscribed, disposed: disposed, create: create)
    }

    /// `start` with the default times: created 100, subscribed 200, disposed 1000.
    public func start<Element, OutputSequence: ObservableConvertibleType>(
        _ create: @escaping () -> OutputSequence
    ) -> TestableObserver<Element> where OutputSequence.Element == Element {
        start(created: Self.defaultCreated, subscribed: Self.defaultSubscribed, disposed: Self.defaultDisposed, create: create)
    }

    /// Moves work scheduled for now or the past one tick ahead when simulating processing delay.
    public override func adjustScheduledTime(_ time: TestTime) -> TestTime {
        time <= clock ? clock + (simulateProcessingDelay ? 1 : 0) : time
    }
}
