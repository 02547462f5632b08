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
    private var observers = Bag<ObserverNode<Element>>()
    private var lastElement: Element?
    /// Set by a terminal event or by dispose: no more events are accepted.
    private var closed = false
    private var disposed = false
    private var stoppedEvent: Event<Element>?

    /// A subject with no element yet.
    public override init() {
        super.init()
    }

    /// `true` while at least one observer is subscribed.
    public var hasObservers: Bool {
        lock.performLocked { !observers.isEmpty }
    }

    /// `true` once ``dispose()`` has been called.
    public var isDisposed: Bool {
        lock.performLocked { disposed }
    }

    /// Remembers `element` as the last one; nothing is sent until termination.
    public func onNext(_ element: Element) {
        var replaced: Element? = element
        lock.lock()
        if closed {
            lock.unlock()
            return
        }
        swap(&lastElement, &replaced)
        lock.unlock()
        withExtendedLifetime(replaced) {}
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
            if case .error = event {
                lastElement = nil
            }
            stoppedEvent = event
            let (snapshot, last) = (observers, lastElement)
            observers.removeAll()
            lock.unlock()
            snapshot.forEach { Self.deliverOutcome(event, last: last, to: $0) }
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
            let last = lastElement
            lock.unlock()
            Self.deliverOutcome(stoppedEvent, last: last, to: observer)
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
        withExtendedLifetime(removed) {}
    }

    /// Detaches every observer and drops the outcome; later events are ignored and later
    /// subscribers get `error(RxError.disposed)`.
    public func dispose() {
        lock.lock()
        disposed = true
        closed = true
        let released = (observers, stoppedEvent, lastElement)
        observers.removeAll()
        stoppedEvent = nil
        lastElement = nil
        lock.unlock()
        withExtendedLifetime(released) {}
    }
}
