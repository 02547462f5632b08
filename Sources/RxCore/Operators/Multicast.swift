import Synchronization

extension ObservableType {
    /// A connectable sequence that sends this sequence's events through `subject`, from
    /// ``ConnectableObservableType/connect()`` on. Subscribers subscribe to the subject;
    /// the same subject is used for every connection.
    public func multicast<Subject: SubjectType>(_ subject: Subject) -> ConnectableObservable<Subject.Element>
    where Subject.Observer.Element == Element {
        ConnectableObservableAdapter(source: asObservable(), makeSubject: { subject })
    }

    /// A connectable sequence that sends this sequence's events through a subject from
    /// `makeSubject`; a new one is made for the first subscription or connection after
    /// the previous connection terminated or was disposed.
    public func multicast<Subject: SubjectType>(makeSubject: @escaping () -> Subject) -> ConnectableObservable<Subject.Element>
    where Subject.Observer.Element == Element {
        ConnectableObservableAdapter(source: asObservable(), makeSubject: makeSubject)
    }

    /// For each subscription: makes a subject with `subjectSelector`, subscribes to the
    /// sequence that `selector` builds from it, then connects the source to the subject.
    /// A throwing selector ends the subscription with its error.
    public func multicast<Subject: SubjectType, Result>(
        _ subjectSelector: @escaping () throws -> Subject,
        selector: @escaping (Observable<Subject.Element>) throws -> Observable<Result>
    ) -> Observable<Result> where Subject.Observer.Element == Element {
        Multicast(source: asObservable(), subjectSelector: subjectSelector, selector: selector)
    }

    /// `multicast` through a new ``PublishSubject`` per connection.
    public func publish() -> ConnectableObservable<Element> {
        multicast(makeSubject: { PublishSubject() })
    }

    /// `multicast` through a new ``ReplaySubject`` of `bufferSize` per connection.
    public func replay(_ bufferSize: Int) -> ConnectableObservable<Element> {
        multicast(makeSubject: { ReplaySubject.create(bufferSize: bufferSize) })
    }

    /// `multicast` through a new unbounded ``ReplaySubject`` per connection.
    public func replayAll() -> ConnectableObservable<Element> {
        multicast(makeSubject: { ReplaySubject.createUnbounded() })
    }
}

/// A connectable sequence that replaces its subject after each connection ends; `refCount`
/// asks which subject a subscriber joined, to tell a subscriber of the next subject from one
/// of the ending connection while that connection's terminal event is still on its way.
protocol SubjectGenerations<Element>: AnyObject {
    associatedtype Element
    /// Subscribes `observer`; returns its subscription and the generation of the subject it
    /// joined (one more after each connection ends).
    func subscribeJoining(node observer: ObserverNode<Element>) -> (Disposable, UInt64)
}

private final class ConnectableObservableAdapter<Subject: SubjectType>: ConnectableObservable<Subject.Element>, SubjectGenerations, @unchecked Sendable { // state guarded by `lock`
    typealias Element = Subject.Element
    typealias SourceElement = Subject.Observer.Element

    fileprivate let source: Observable<SourceElement>
    private let makeSubject: () -> Subject
    fileprivate let lock = Lock.make()
    /// The subject for the current (or next) connection; cleared when a connection ends
    /// so a factory can make a fresh one.
    fileprivate var subject: Subject?
    fileprivate var connection: MulticastConnection<Subject>?
    /// Counts the subjects dropped when their connection ended.
    fileprivate var generation: UInt64 = 0

    init(source: Observable<SourceElement>, makeSubject: @escaping () -> Subject) {
        self.source = source
        self.makeSubject = makeSubject
        super.init()
    }

    /// Connects unless already connected; returns the current connection either way.
    override func connect() -> Disposable {
        lock.lock()
        if let connection {
            lock.unlock()
            return connection
        }
        let connection = MulticastConnection(parent: self, subjectObserver: lockedSubject.asObserver())
        self.connection = connection
        lock.unlock()
        // Subscribed outside the lock: a source that emits synchronously must not run
        // subscribers' code under it.
        connection.subscribe(to: source)
        return connection
    }

    override func subscribe(node observer: ObserverNode<Element>) -> Disposable {
        let subject = lock.performLocked { lockedSubject }
        return subject.subscribe(node: observer)
    }

    func subscribeJoining(node observer: ObserverNode<Element>) -> (Disposable, UInt64) {
        let (subject, generation) = lock.performLocked { (lockedSubject, self.generation) }
        return (subject.subscribe(node: observer), generation)
    }

    private var lockedSubject: Subject {
        if let subject { return subject }
        let subject = makeSubject()
        self.subject = subject
        return subject
    }
}

/// One connection: forwards the source to the subject until disposed or terminated.
private final class MulticastConnection<Subject: SubjectType>: ObserverNode<Subject.Observer.Element>, Cancelable, @unchecked Sendable { // `parent` guarded by `lock`
    private let lock: Lock
    private var parent: ConnectableObservableAdapter<Subject>?
    private let subjectObserver: ObserverNode<Subject.Observer.Element>
    private let subscription = SingleAssignmentDisposable()
    private let disposed = Atomic<Bool>(false)

    init(parent: ConnectableObservableAdapter<Subject>, subjectObserver: Subject.Observer) {
        self.lock = parent.lock
        self.parent = parent
        self.subjectObserver = makeObserverNode(subjectObserver)
    }

    var isDisposed: Bool {
        disposed.load(ordering: .acquiring)
    }

    func subscribe(to source: Observable<Subject.Observer.Element>) {
        subscription.setDisposable(source.subscribe(node: self))
    }

    override func onNext(_ element: Subject.Observer.Element) {
        if disposed.load(ordering: .relaxed) { return }
        subjectObserver.onNext(element)
    }

    override func onError(_ error: Swift.Error) {
        if disposed.load(ordering: .relaxed) { return }
        // Detach first, so a subscriber reacting to the error gets the next connection.
        dispose()
        subjectObserver.onError(error)
    }

    override func onCompleted() {
        if disposed.load(ordering: .relaxed) { return }
        dispose()
        subjectObserver.onCompleted()
    }

    func dispose() {
        guard disposed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        lock.lock()
        if let parent, parent.connection === self {
            parent.connection = nil
            parent.subject = nil
            parent.generation &+= 1
        }
        parent = nil
        lock.unlock()
        subscription.dispose()
    }
}

/// `multicast(_:selector:)`: a private connectable sequence per subscription.
private final class Multicast<Subject: SubjectType, Result>: Producer<Result> {
    private let source: Observable<Subject.Observer.Element>
    private let subjectSelector: () throws -> Subject
    private let selector: (Observable<Subject.Element>) throws -> Observable<Result>

    init(
        source: Observable<Subject.Observer.Element>,
        subjectSelector: @escaping () throws -> Subject,
        selector: @escaping (Observable<Subject.Element>) throws -> Observable<Result>
    ) {
        self.source = source
        self.subjectSelector = subjectSelector
        self.selector = selector
    }

    override func run(_ observer: ObserverNode<Result>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = MulticastSink<Result>(observer: observer, cancel: cancel)
        do {
            let subject = try subjectSelector()
            let connectable = ConnectableObservableAdapter(source: source, makeSubject: { subject })
            let observable = try selector(connectable)
            let subscription = observable.subscribe(node: sink)
            let connection = connectable.connect()
            return (sink, Disposables.create(subscription, connection))
        } catch {
            sink.forwardError(error)
            sink.dispose()
            return (sink, Disposables.create())
        }
    }
}

private final class MulticastSink<Element>: Sink<Element, Element> {
    override func onNext(_ element: Element) {
        forwardNext(element)
    }
}
