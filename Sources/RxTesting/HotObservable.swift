import RxCore

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
