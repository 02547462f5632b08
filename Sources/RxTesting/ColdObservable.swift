import RxCore

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
