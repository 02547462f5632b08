/// A subject that sends nothing until it terminates: on `completed` it sends its last
/// element (if any) then `completed`; on `error` only the error. Late subscribers get the
/// same.
///
/// After ``dispose()`` late subscribers get `error(RxError.disposed)` (RxSwift's
/// AsyncSubject has no `dispose`; Bindery gives all subjects the same lifecycle).
public final class AsyncSubject<Element>:
    Observable<Element>, SubjectType, ObserverType, Cancelable, SynchronizedUnsubscribeType, SubjectInput,
    @unchecked Sendable // all state is guarded by `lock`
{
    /// The observer type that feeds the subject: the subject itself.
    public typealias SubjectObserverType = AsyncSubject<Element>

    private let lock = Lock.make()
    // Guarded by `lock`, so no dynamic exclusivity checks.
    @exclusivity(unchecked) private var observers = ObserverBag()
    /// The last element, when `hasLast`.
    private let last = ElementSlot<Element>()
    private var hasLast = false
    /// Set by a terminal event or by dispose: no more events are accepted.
    private var closed = false
    private var disposed = false
    private var stoppedEvent: Event<Element>?

    /// A subject with no element yet.
    public override init() {
        super.init()
    }

    deinit {
        if hasLast {
            _ = last.take()
        }
        last.deallocate()
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

    /// Remembers `element` as the last one; nothing is sent until termination.
    public func onNext(_ element: Element) {
        lock.lock()
        if closed {
            lock.unlock()
            return
        }
        if hasLast {
            let replaced = last.replace(with: element)
            lock.unlock()
            // The old element's release may run arbitrary code: not under the lock.
            withExtendedLifetime(replaced) {}
        } else {
            last.initialize(element)
            hasLast = true
            lock.unlock()
        }
    }

    /// Remembers a `next`; on a terminal event sends the outcome to the current
    /// observers, detaches them and keeps it for late subscribers.
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
            // An error discards the last element (released below, outside the lock).
            var dropped: Element?
            if case .error = event, hasLast {
                dropped = last.take()
                hasLast = false
            }
            let lastValue = hasLast ? last.element : nil
            let snapshot = observers.detachAll()
            lock.unlock()
            snapshot.forEach(as: ObserverNode<Element>.self) {
                Self.deliverOutcome(event, last: lastValue, to: $0)
            }
            withExtendedLifetime(dropped) {}
        }
    }

    private static func deliverOutcome(_ stoppedEvent: Event<Element>, last: Element?, to observer: ObserverNode<Element>) {
        if let last {
            observer.onNext(last)
        }
        observer.on(stoppedEvent)
    }

    /// The subject itself.
    public func asObserver() -> AsyncSubject<Element> {
        self
    }

    override func subscribe(node observer: ObserverNode<Element>) -> Disposable {
        lock.lock()
        if let stoppedEvent {
            let lastValue = hasLast ? last.element : nil
            lock.unlock()
            Self.deliverOutcome(stoppedEvent, last: lastValue, to: observer)
            return Disposables.create()
        }
        if disposed {
            lock.unlock()
            observer.onError(RxError.disposed(object: self))
            return Disposables.create()
        }
        let key = observers.insert(observer)
        lock.unlock()
        return SubscriptionDisposable(owner: self, key: key)
    }

    func synchronizedUnsubscribe(_ key: BagKey) {
        lock.lock()
        let removed = observers.removeKey(key)
        lock.unlock()
        // The observer may be the last reference to a sink: release it unlocked.
        withExtendedLifetime(removed) {}
    }

    /// Detaches every observer and drops the outcome; later events are ignored and later
    /// subscribers get `error(RxError.disposed)`.
    public func dispose() {
        lock.lock()
        disposed = true
        closed = true
        let released = (observers.detachAll(), stoppedEvent, hasLast ? last.take() : nil)
        stoppedEvent = nil
        hasLast = false
        lock.unlock()
        withExtendedLifetime(released) {}
    }
}
