extension ConnectableObservableType {
    /// An observable that connects this sequence when its first subscriber arrives and
    /// disconnects when the last one leaves.
    ///
    /// A terminal event ends the connection: the next subscriber connects again, unless
    /// the subject gives it the terminal event synchronously on subscription (a subject
    /// that lives forever), in which case nothing is connected.
    public func refCount() -> Observable<Element> {
        RefCount(source: self)
    }
}

private final class RefCount<Source: ConnectableObservableType>: Producer<Source.Element>, @unchecked Sendable { // state guarded by `lock`
    typealias Element = Source.Element

    let source: Source
    let lock = Lock.make()
    var count = 0
    /// Identifies the current connection; a terminal event moves it on, so disposals of
    /// subscriptions to an ended connection do not touch the next one.
    var connectionID: UInt64 = 0
    /// The current connection; set before `connect()` runs (outside the lock), so a
    /// disconnect that comes first disposes the connection as soon as it exists.
    var connection: SingleAssignmentDisposable?
    /// The subject generation the current connection serves (for a ``SubjectGenerations``
    /// source).
    var generation: UInt64?

    init(source: Source) {
        self.source = source
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = RefCountSink(parent: self, observer: observer, cancel: cancel)
        let subscription: Disposable
        var joined: UInt64?
        if let generational = source as? any SubjectGenerations<Element> {
            let (joinedSubscription, generation) = generational.subscribeJoining(node: sink)
            subscription = joinedSubscription
            joined = generation
        } else {
            subscription = source.subscribe(node: sink)
        }
        lock.lock()
        if sink.lockedStopped || sink.isDisposed {
            // The subject ended it synchronously (e.g. a terminated subject that lives
            // forever): nothing to connect.
            lock.unlock()
            return (sink, subscription)
        }
        var ended: Disposable?
        if let joined, let current = generation, count > 0, joined != current {
            if joined < current {
                // It joined the subject of a connection that has ended: that subject's
                // terminal event reaches it; it takes no part in the current connection.
                lock.unlock()
                return (sink, subscription)
            }
            // It joined the next subject while the current connection's terminal event is
            // still on its way to the others: that connection is over, start the next.
            ended = lockedTerminated(connectionID)
        }
        let id = connectionID
        sink.lockedConnectionID = id
        count += 1
        var toConnect: SingleAssignmentDisposable?
        if count == 1 {
            let connection = SingleAssignmentDisposable()
            self.connection = connection
            generation = joined
            toConnect = connection
        }
        lock.unlock()
        ended?.dispose()
        // Outside the lock: a source that emits synchronously must not run subscribers'
        // code under it.
        toConnect?.setDisposable(source.connect())
        return (sink, Disposables.create(subscription, Disposables.create { [self] in release(id) }))
    }

    /// One counted subscription of connection `id` went away.
    private func release(_ id: UInt64) {
        lock.lock()
        guard connectionID == id, count > 0 else {
            lock.unlock()
            return
        }
        count -= 1
        var toDispose: Disposable?
        if count == 0 {
            toDispose = connection
            connection = nil
        }
        lock.unlock()
        toDispose?.dispose()
    }

    /// A subscriber of connection `id` got its terminal event: the connection is over.
    func lockedTerminated(_ id: UInt64) -> Disposable? {
        guard connectionID == id else { return nil }
        count = 0
        connectionID &+= 1
        let ended = connection
        connection = nil
        return ended
    }
}

private final class RefCountSink<Source: ConnectableObservableType>: Sink<Source.Element, Source.Element>, @unchecked Sendable {
    // Both guarded by `parent.lock`.
    var lockedConnectionID: UInt64?
    var lockedStopped = false
    private let parent: RefCount<Source>

    init(parent: RefCount<Source>, observer: ObserverNode<Source.Element>, cancel: Cancelable) {
        self.parent = parent
        super.init(observer: observer, cancel: cancel)
    }

    override func onNext(_ element: Source.Element) {
        forwardNext(element)
    }

    override func onError(_ error: Swift.Error) {
        endConnection()
        forwardError(error)
        dispose()
    }

    override func onCompleted() {
        endConnection()
        forwardCompleted()
        dispose()
    }

    private func endConnection() {
        parent.lock.lock()
        lockedStopped = true
        let ended = lockedConnectionID.flatMap { parent.lockedTerminated($0) }
        parent.lock.unlock()
        ended?.dispose()
    }
}
