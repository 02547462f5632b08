/// A subject with a current value: each new subscriber gets it synchronously, then every
/// later element.
///
/// After a terminal event, late subscribers get only that event; after ``dispose()``
/// they get `error(RxError.disposed)`. Events are sent outside the lock, to a snapshot
/// of the observers.
///
/// Because the current value is delivered to a new subscriber outside the lock, an
/// element sent concurrently could otherwise overtake it. So a subscriber joins the
/// observers only once the value it was last given is still current (else it is given
/// the newer one first): it always ends on the current value, in order, though it may
/// skip values that were replaced while it was joining.
public final class BehaviorSubject<Element>:
    Observable<Element>, SubjectType, ObserverType, Cancelable, SynchronizedUnsubscribeType, SubjectInput,
    @unchecked Sendable // all state is guarded by `lock`
{
    /// The observer type that feeds the subject: the subject itself.
    public typealias SubjectObserverType = BehaviorSubject<Element>

    private let lock = Lock.make()
    // Guarded by `lock`, so no dynamic exclusivity checks.
    @exclusivity(unchecked) private var observers = ObserverBag()
    /// The current value; always full until deinit.
    private let current: ElementSlot<Element>
    /// Incremented by each element, so a joining subscriber can tell whether the value it
    /// was given is still current.
    private var version: UInt64 = 0
    /// Set by a terminal event or by dispose: no more events are accepted.
    private var closed = false
    private var disposed = false
    private var stoppedEvent: Event<Element>?

    /// A subject whose current value is `value`.
    public init(value: Element) {
        current = ElementSlot(value)
        super.init()
    }

    deinit {
        _ = current.take()
        current.deallocate()
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

    /// The current value: the last element, also after `completed`.
    ///
    /// - Throws: the error after `error`; `RxError.disposed` after ``dispose()``.
    public func value() throws -> Element {
        lock.lock()
        defer { lock.unlock() }
        if disposed {
            throw RxError.disposed(object: self)
        }
        if case .error(let error)? = stoppedEvent {
            throw error
        }
        return current.element
    }

    /// Makes `element` the current value and sends it to the current observers. The fast
    /// path: no `Event` is built.
    public func onNext(_ element: Element) {
        lock.lock()
        if closed {
            lock.unlock()
            return
        }
        let replaced = current.replace(with: element)
        version &+= 1
        let snapshot = observers
        lock.unlock()
        snapshot.forEach(as: ObserverNode<Element>.self) { $0.onNext(element) }
        // The old value may own resources whose release must not run under the lock.
        withExtendedLifetime(replaced) {}
    }

    /// Sends `event`; a terminal event also detaches the observers and is remembered for
    /// late subscribers.
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
    public func asObserver() -> BehaviorSubject<Element> {
        self
    }

    override func subscribe(node observer: ObserverNode<Element>) -> Disposable {
        lock.lock()
        if disposed {
            lock.unlock()
            observer.onError(RxError.disposed(object: self))
            return Disposables.create()
        }
        while true {
            if let stoppedEvent {
                lock.unlock()
                observer.on(stoppedEvent)
                return Disposables.create()
            }
            let given = version
            let value = current.element
            lock.unlock()
            observer.onNext(value)
            lock.lock()
            if disposed {
                // Disposed while joining: as if it had joined just before, it gets nothing more.
                lock.unlock()
                return Disposables.create()
            }
            if stoppedEvent == nil && version == given {
                let key = observers.insert(observer)
                lock.unlock()
                return SubscriptionDisposable(owner: self, key: key)
            }
        }
    }

    func synchronizedUnsubscribe(_ key: BagKey) {
        lock.lock()
        let removed = observers.removeKey(key)
        lock.unlock()
        // The observer may be the last reference to a sink: release it unlocked.
        withExtendedLifetime(removed) {}
    }

    /// Detaches every observer; later events are ignored, ``value()`` throws and later
    /// subscribers get `error(RxError.disposed)`.
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
