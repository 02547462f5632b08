/// `share(replay: 1, scope: .whileConnected)`: one connection to the source while anyone
/// is subscribed, remembering its latest element for new subscribers.
///
/// The first subscriber connects; the last dispose disconnects and forgets the element.
/// A terminal event ends the connection, so the next subscriber connects afresh.
/// A dedicated type (as in RxSwift) rather than `multicast` + `refCount`: no subject, one
/// lock for both levels and one lock/unlock per element.
final class ShareReplay1WhileConnected<Element>: Observable<Element>, @unchecked Sendable { // state guarded by `lock`
    fileprivate let source: Observable<Element>
    /// Guards this object and its current connection.
    fileprivate let lock = Lock.make()
    fileprivate var connection: ShareReplay1Connection<Element>?

    init(source: Observable<Element>) {
        self.source = source
        super.init()
    }

    override func subscribe(node observer: ObserverNode<Element>) -> Disposable {
        lock.lock()
        if let connection {
            // Unlocks `lock`.
            return connection.lockedJoin(observer)
        }
        let connection = ShareReplay1Connection(parent: self)
        self.connection = connection
        let key = connection.observers.insert(observer)
        lock.unlock()
        connection.connect()
        return SubscriptionDisposable(owner: connection, key: key)
    }
}

/// One subscription to the source, shared by the current subscribers.
private final class ShareReplay1Connection<Element>: ObserverNode<Element>, SynchronizedUnsubscribeType, @unchecked Sendable {
    // All `var`s, and `latest`'s contents, are guarded by `parent.lock`.
    private let parent: ShareReplay1WhileConnected<Element>
    private let subscription = SingleAssignmentDisposable()
    // Not private: the parent inserts the first subscriber.
    // Guarded by `parent.lock`, so no dynamic exclusivity checks.
    @exclusivity(unchecked) var observers = ObserverBag()
    /// The latest element, when `hasLatest`.
    private let latest = ElementSlot<Element>()
    private var hasLatest = false
    /// Incremented by each element, so a joining subscriber can tell whether the element
    /// it was given is still the latest.
    private var version: UInt64 = 0
    /// Subscribers being given the latest element outside the lock; they keep the
    /// connection up as if they were already observers.
    private var joining = 0
    /// Terminated or disconnected: no more events.
    private var closed = false
    /// The terminal event, for subscribers still joining when it arrived.
    private var stoppedEvent: Event<Element>?

    init(parent: ShareReplay1WhileConnected<Element>) {
        self.parent = parent
    }

    deinit {
        if hasLatest {
            _ = latest.take()
        }
        latest.deallocate()
    }

    func connect() {
        subscription.setDisposable(parent.source.subscribe(node: self))
    }

    /// Adds `observer`, first giving it the latest element if there is one. Called with
    /// `parent.lock` held; returns with it released.
    func lockedJoin(_ observer: ObserverNode<Element>) -> Disposable {
        let lock = parent.lock
        guard hasLatest else {
            let key = observers.insert(observer)
            lock.unlock()
            return SubscriptionDisposable(owner: self, key: key)
        }
        joining += 1
        while true {
            // `latest` stays full while anyone is joining: only closing empties it.
            let given = version
            let value = latest.element
            lock.unlock()
            observer.onNext(value)
            lock.lock()
            if let stoppedEvent {
                joining -= 1
                lock.unlock()
                observer.on(stoppedEvent)
                return Disposables.create()
            }
            if version == given {
                joining -= 1
                let key = observers.insert(observer)
                lock.unlock()
                return SubscriptionDisposable(owner: self, key: key)
            }
        }
    }

    override func onNext(_ element: Element) {
        let lock = parent.lock
        lock.lock()
        if closed {
            lock.unlock()
            return
        }
        version &+= 1
        if hasLatest {
            let replaced = latest.replace(with: element)
            let snapshot = observers
            lock.unlock()
            snapshot.forEach(as: ObserverNode<Element>.self) { $0.onNext(element) }
            // The old element's release may run arbitrary code: not under the lock.
            withExtendedLifetime(replaced) {}
        } else {
            latest.initialize(element)
            hasLatest = true
            let snapshot = observers
            lock.unlock()
            snapshot.forEach(as: ObserverNode<Element>.self) { $0.onNext(element) }
        }
    }

    override func onError(_ error: Swift.Error) {
        terminate(.error(error))
    }

    override func onCompleted() {
        terminate(.completed)
    }

    private func terminate(_ event: Event<Element>) {
        let lock = parent.lock
        lock.lock()
        if closed {
            lock.unlock()
            return
        }
        stoppedEvent = event
        let released = lockedClose()
        lock.unlock()
        released.observers.forEach(as: ObserverNode<Element>.self) { $0.on(event) }
        subscription.dispose()
        withExtendedLifetime(released) {}
    }

    func synchronizedUnsubscribe(_ key: BagKey) {
        let lock = parent.lock
        lock.lock()
        let removed = observers.removeKey(key)
        guard removed != nil, observers.isEmpty, joining == 0, !closed else {
            lock.unlock()
            withExtendedLifetime(removed) {}
            return
        }
        let released = lockedClose()
        lock.unlock()
        subscription.dispose()
        withExtendedLifetime((removed, released)) {}
    }

    /// Stops accepting events and detaches from the parent, so the next subscriber
    /// connects afresh. Returns what it held, to be released outside the lock.
    private func lockedClose() -> (observers: ObserverBag, latest: Element?) {
        closed = true
        let detached = observers.detachAll()
        let element = hasLatest ? latest.take() : nil
        hasLatest = false
        if parent.connection === self {
            parent.connection = nil
        }
        return (detached, element)
    }
}
