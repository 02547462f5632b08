import RxCore

/// An observable of recorded events that also records its subscriptions.
public class TestableObservable<Element>: ObservableType {
    /// The scheduler the events are played on.
    public let testScheduler: TestScheduler

    /// The events this observable plays.
    public let recordedEvents: [Recorded<Event<Element>>]

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

/// Plays its events at their absolute times to whoever is subscribed then.
final class HotObservable<Element>: TestableObservable<Element> {
    private var observers: [Int: AnyObserver<Element>] = [:]
    private var order: [Int] = []
    private var nextKey = 0

    override init(testScheduler: TestScheduler, recordedEvents: [Recorded<Event<Element>>]) {
        super.init(testScheduler: testScheduler, recordedEvents: recordedEvents)
        for recorded in recordedEvents {
            testScheduler.scheduleAt(recorded.time) { [weak self] in
                guard let self else { return }
                for key in self.order {
                    self.observers[key]?.on(recorded.value)
                }
            }
        }
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let key = nextKey
        nextKey += 1
        observers[key] = AnyObserver(observer)
        order.append(key)
        let index = recordSubscription()
        var disposed = false
        return Disposables.create {
            guard !disposed else { return }
            disposed = true
            self.observers[key] = nil
            self.order.removeAll { $0 == key }
            self.recordUnsubscription(index)
        }
    }
}

/// Plays its events at times relative to each subscription.
final class ColdObservable<Element>: TestableObservable<Element> {
    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let index = recordSubscription()
        let scheduled = CompositeDisposable()
        for recorded in recordedEvents {
            let disposable = testScheduler.scheduleRelativeVirtual((), dueTime: recorded.time) { _ in
                observer.on(recorded.value)
                return Disposables.create()
            }
            _ = scheduled.insert(disposable)
        }
        var disposed = false
        return Disposables.create {
            guard !disposed else { return }
            disposed = true
            self.recordUnsubscription(index)
            scheduled.dispose()
        }
    }
}
