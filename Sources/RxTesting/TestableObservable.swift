import RxCore

/// An observable of recorded events that also records its subscriptions.
public class TestableObservable<Element>: ObservableType {
    /// The scheduler the events are played on.
    public let testScheduler: TestScheduler

    /// The events this observable plays; their times are absolute for a hot observable,
    /// relative to each subscription for a cold one.
    public internal(set) var recordedEvents: [Recorded<Event<Element>>]

    /// Every subscription, with when it started and ended.
    public internal(set) var subscriptions: [Subscription] = []

    init(testScheduler: TestScheduler, recordedEvents: [Recorded<Event<Element>>]) {
        self.testScheduler = testScheduler
        self.recordedEvents = recordedEvents
    }

    /// Subscribes `observer`; subclasses decide when events are played.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        fatalError("TestableObservable is abstract")
    }

    /// Records the start of a subscription; returns its index.
    func recordSubscription() -> Int {
        subscriptions.append(Subscription(testScheduler.clock))
        return subscriptions.count - 1
    }

    /// Records the end of subscription `index`.
    func recordUnsubscription(_ index: Int) {
        let existing = subscriptions[index]
        subscriptions[index] = Subscription(existing.subscribe, testScheduler.clock)
    }
}
