/// `share(replay: 0, scope: .whileConnected)`: one connection to the source while anyone
/// is subscribed, no replay.
///
/// The first subscriber connects; the last dispose disconnects. A terminal event ends the
/// connection, so the next subscriber connects afresh.
final class ShareWhileConnected<Element>: Observable<Element>, @unchecked Sendable { // state guarded by `lock`
    fileprivate let source: Observable<Element>
    /// Guards this object and its current connection.
    fileprivate let lock = Lock.make()
    fileprivate var connection: ShareConnection<Element>?

    init(source: Observable<Element>) {
        self.source = source
        super.init()
    }

    override func subscribe(node observer: ObserverNode<Element>) -> Disposable {
        lock.lock()
        let connection: ShareConnection<Element>
        let isNew: Bool
        if let existing = self.connection {
            connection = existing
            isNew = false
        } else {
            connection = ShareConnection(parent: self)
            self.connection = connection
            isNew = true
        }
        let key = connection.observers.insert(observer)
        lock.unlock()
        if isNew {
            connection.connect()
        }
        return SubscriptionDisposable(owner: connection, key: key)
    }
}

/// One subscription to the source, shared by the current subscribers.
private final class ShareConnection<Element>: ObserverNode<Element>, SynchronizedUnsubscribeType, @unchecked Sendable {
    // All `var`s are guarded by `parent.lock`.
    private let parent: ShareWhileConnected<Element>
    private let subscription = SingleAssignmentDisposable()
    // Not private: the parent inserts each subscriber.
    // Guarded by `parent.lock`, so no dynamic exclusivity checks.
    @exclusivity(unchecked) var observers = ObserverBag()
    /// Terminated or disconnected: no more events.
    private var closed = false

    init(parent: ShareWhileConnected<Element>) {
        self.parent = parent
    }

    func connect() {
        subscription.setDisposable(parent.source.subscribe(node: self))
    }

    override func onNext(_ element: Element) {
        let lock = parent.lock
        lock.lock()
        if closed {
            lock.unlock()
            return
        }
        let snapshot = observers
        lock.unlock()
        snapshot.forEach(as: ObserverNode<Element>.self) { $0.onNext(element) }
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
        let snapshot = lockedClose()
        lock.unlock()
        snapshot.forEach(as: ObserverNode<Element>.self) { $0.on(event) }
        subscription.dispose()
    }

    func synchronizedUnsubscribe(_ key: BagKey) {
        let lock = parent.lock
        lock.lock()
        let removed = observers.removeKey(key)
        guard removed != nil, observers.isEmpty, !closed else {
            lock.unlock()
            withExtendedLifetime(removed) {}
            return
        }
        let detached = lockedClose()
        lock.unlock()
        subscription.dispose()
        withExtendedLifetime((removed, detached)) {}
    }

    /// Stops accepting events and detaches from the parent, so the next subscriber
    /// connects afresh. Returns the observers, to be released outside the lock.
    private func lockedClose() -> ObserverBag {
        closed = true
        let detached = observers.detachAll()
        if parent.connection === self {
            parent.connection = nil
        }
        return detached
    }
}
