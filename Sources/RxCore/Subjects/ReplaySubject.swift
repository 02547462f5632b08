/// A subject that replays its last elements (a bounded buffer, or all of them) to each
/// new subscriber, then the terminal event if there was one.
///
/// After ``dispose()`` the buffer is cleared and late subscribers get
/// `error(RxError.disposed)`. Events are sent outside the lock, to a snapshot of the
/// observers.
///
/// The buffer is replayed to a new subscriber outside the lock; it joins the observers
/// only once no element arrived meanwhile (else it is given the newer ones first). It
/// therefore gets everything in the buffer at the moment it joins, then every later
/// element, in order.
public final class ReplaySubject<Element>:
    Observable<Element>, SubjectType, ObserverType, Cancelable, SynchronizedUnsubscribeType, SubjectInput,
    @unchecked Sendable // all state is guarded by `lock`
{
    /// The observer type that feeds the subject: the subject itself.
    public typealias SubjectObserverType = ReplaySubject<Element>

    private let lock = Lock.make()
    // Guarded by `lock`, so no dynamic exclusivity checks.
    @exclusivity(unchecked) private var observers = ObserverBag()
    private let buffer: ReplayBuffer<Element>
    /// Set by a terminal event or by dispose: no more events are accepted.
    private var closed = false
    private var disposed = false
    private var stoppedEvent: Event<Element>?

    private init(limit: Int?) {
        buffer = ReplayBuffer(limit: limit)
        super.init()
    }

    /// A subject that replays at most the last `bufferSize` elements (0 replays none).
    public static func create(bufferSize: Int) -> ReplaySubject<Element> {
        ReplaySubject(limit: bufferSize)
    }

    /// A subject that replays every element it ever received; the caller keeps the
    /// sequence reasonably short.
    public static func createUnbounded() -> ReplaySubject<Element> {
        ReplaySubject(limit: nil)
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

    /// Buffers `element` and sends it to the current observers. The fast path: no
    /// `Event` is built.
    public func onNext(_ element: Element) {
        lock.lock()
        if closed {
            lock.unlock()
            return
        }
        if buffer.isFull {
            let evicted = buffer.replaceOldest(with: element)
            let snapshot = observers
            lock.unlock()
            snapshot.forEach(as: ObserverNode<Element>.self) { $0.onNext(element) }
            // The evicted element's release may run arbitrary code: not under the lock.
            withExtendedLifetime(evicted) {}
        } else {
            buffer.append(element)
            let snapshot = observers
            lock.unlock()
            snapshot.forEach(as: ObserverNode<Element>.self) { $0.onNext(element) }
        }
    }

    /// Sends `event`; a terminal event also detaches the observers and is replayed, after
    /// the buffer, to late subscribers.
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
    public func asObserver() -> ReplaySubject<Element> {
        self
    }

    override func subscribe(node observer: ObserverNode<Element>) -> Disposable {
        lock.lock()
        if disposed {
            lock.unlock()
            observer.onError(RxError.disposed(object: self))
            return Disposables.create()
        }
        var seen: UInt64 = 0
        while true {
            if buffer.total == seen {
                if let stoppedEvent {
                    lock.unlock()
                    observer.on(stoppedEvent)
                    return Disposables.create()
                }
                let key = observers.insert(observer)
                lock.unlock()
                return SubscriptionDisposable(owner: self, key: key)
            }
            // Copied in chunks, so a long buffer never holds the lock for long.
            let (chunk, last) = buffer.elements(after: seen, maximum: 64)
            lock.unlock()
            for element in chunk {
                observer.onNext(element)
            }
            seen = last
            lock.lock()
            if disposed {
                // Disposed while joining: as if it had joined just before, it gets nothing more.
                lock.unlock()
                return Disposables.create()
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

    /// Detaches every observer and clears the buffer; later events are ignored and later
    /// subscribers get `error(RxError.disposed)`.
    public func dispose() {
        lock.lock()
        disposed = true
        closed = true
        let released = (observers.detachAll(), stoppedEvent, buffer.removeAll())
        stoppedEvent = nil
        lock.unlock()
        withExtendedLifetime(released) {}
    }
}
