/// A subject that sends each event to the observers subscribed at that moment, with no
/// replay.
///
/// After a terminal event, late subscribers get only that terminal event; after
/// ``dispose()`` they get `error(RxError.disposed)`. Events are sent outside the lock, to
/// a snapshot of the observers, so an observer may subscribe, dispose or send from
/// inside its callback.
public final class PublishSubject<Element>:
    Observable<Element>, SubjectType, ObserverType, Cancelable, SynchronizedUnsubscribeType, SubjectInput,
    @unchecked Sendable // all state is guarded by `lock`
{
    /// The observer type that feeds the subject: the subject itself.
    public typealias SubjectObserverType = PublishSubject<Element>

    private let lock = Lock.make()
    // Guarded by `lock`, so no dynamic exclusivity checks.
    @exclusivity(unchecked) private var observers = ObserverBag()
    /// Set by a terminal event or by dispose: no more events are accepted. A plain
    /// `Bool` so `onNext` never inspects the generic `stoppedEvent`.
    @exclusivity(unchecked) private var closed = false
    @exclusivity(unchecked) private var disposed = false
    @exclusivity(unchecked) private var stoppedEvent: Event<Element>?

    /// A subject with no observers.
    public override init() {
        super.init()
    }

    /// `true` while at least one observer is subscribed.
    public var hasObservers: Bool {
        lock.lock()
        let bag = observers
        lock.unlock()
        return !bag.isEmpty
    }

    /// `true` once ``dispose()`` has been called.
    public var isDisposed: Bool {
        lock.performLocked { disposed }
    }

    /// Sends `element` to the current observers. The fast path: no `Event` is built.
    public func onNext(_ element: Element) {
        lock.lock()
        if closed {
            lock.unlock()
            return
        }
        let snapshot = observers
        lock.unlock()
        snapshot.forEach(as: ObserverNode<Element>.self) { $0.onNext(element) }
    }

    /// Sends `event` to the current observers; a terminal event also detaches them and
    /// is remembered for late subscribers.
    public func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error, .completed:
            lock.lock()
            if closed {
                lock.unlock()
                return
            }
            closed = true
            stoppedEvent = event
            let snapshot = observers.detachAll()
            lock.unlock()
            snapshot.forEach(as: ObserverNode<Element>.self) { $0.on(event) }
        }
    }

    /// The subject itself.
    public func asObserver() -> PublishSubject<Element> {
        self
    }

    override func subscribe(node observer: ObserverNode<Element>) -> Disposable {
        lock.lock()
        if closed {
            return lockedSubscribeClosed(observer)
        }
        let key = observers.insert(observer)
        lock.unlock()
        return SubscriptionDisposable(owner: self, key: key)
    }

    /// Subscribing once closed: replays the terminal event or reports `disposed`. Kept out
    /// of line: a generic `Event<Element>?` local anywhere in `subscribe(node:)` makes
    /// unspecialised code look up `Optional<Event<Element>>` metadata on every call.
    @inline(never)
    private func lockedSubscribeClosed(_ observer: ObserverNode<Element>) -> Disposable {
        if let stoppedEvent {
            lock.unlock()
            observer.on(stoppedEvent)
            return Disposables.create()
        }
        lock.unlock()
        observer.onError(RxError.disposed(object: self))
        return Disposables.create()
    }

    func synchronizedUnsubscribe(_ key: BagKey) {
        lock.lock()
        let removed = observers.removeKey(key)
        lock.unlock()
        // The observer may be the last reference to a sink: release it unlocked.
        withExtendedLifetime(removed) {}
    }

    /// Detaches every observer and drops the terminal event; later events are ignored
    /// and later subscribers get `error(RxError.disposed)`.
    public func dispose() {
        lock.lock()
        disposed = true
        closed = true
        let released = (observers.detachAll(), stoppedEvent)
        stoppedEvent = nil
        lock.unlock()
        withExtendedLifetime(released) {}
    }
}
