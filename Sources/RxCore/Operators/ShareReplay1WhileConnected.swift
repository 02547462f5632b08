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
    // All `var`s are guarded by `parent.lock`.
    private let parent: ShareReplay1WhileConnected<Element>
    private let subscription = SingleAssignmentDisposable()
    var observers = Bag<ObserverNode<Element>>()
    private var element: Element?
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

    func connect() {
        subscription.setDisposable(parent.source.subscribe(node: self))
    }

    /// Adds `observer`, first giving it the latest element if there is one. Called with
    /// `parent.lock` held; returns with it released.
    func lockedJoin(_ observer: ObserverNode<Element>) -> Disposable {
        let lock = parent.lock
        guard let latest = element else {
            let key = observers.insert(observer)
            lock.unlock()
            return SubscriptionDisposable(owner: self, key: key)
        }
        joining += 1
        var given = version
        var current = latest
        while true {
            lock.unlock()
            observer.onNext(current)
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
            given = version
            current = element! // set by every element, never cleared while joining
        }
    }

    override func onNext(_ element: Element) {
        var replaced: Element? = element
        let lock = parent.lock
        lock.lock()
        if closed {
            lock.unlock()
            return
        }
        swap(&self.element, &replaced)
        version &+= 1
        let snapshot = observers
        lock.unlock()
        snapshot.forEach { $0.onNext(element) }
        withExtendedLifetime(replaced) {}
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
        let (snapshot, released) = (observers, element)
        lockedClose()
        lock.unlock()
        snapshot.forEach { $0.on(event) }
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
        let released = element
        lockedClose()
        lock.unlock()
        subscription.dispose()
        withExtendedLifetime((removed, released)) {}
    }

    /// Stops accepting events and detaches from the parent, so the next subscriber
    /// connects afresh.
    private func lockedClose() {
        closed = true
        observers = Bag()
        element = nil
        if parent.connection === self {
            parent.connection = nil
        }
    }
}
