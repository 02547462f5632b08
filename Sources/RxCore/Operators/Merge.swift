// merge, and the sinks the flattening operators share, as in RxSwift:
// - FlatteningSink: the base of the two below (lock, inner observers, terminal events);
// - MergeSink: every inner sequence at once (merge, flatMap, flatMapFirst);
// - MergeLimitedSink: at most n inner sequences at once, the rest queued in order
//   (merge(maxConcurrent:), concat() of an observable of observables, concatMap).

extension ObservableType where Element: ObservableConvertibleType {
    /// Merges the elements of every inner sequence into one sequence.
    ///
    /// Completes when the outer sequence and every inner one have completed; the first
    /// error, outer or inner, ends it.
    public func merge() -> Observable<Element.Element> {
        Merge(source: asObservable())
    }

    /// Merges the elements of the inner sequences, subscribed to at most `maxConcurrent` at
    /// a time; the others wait, in order, for a running one to complete.
    public func merge(maxConcurrent: Int) -> Observable<Element.Element> {
        MergeLimited(source: asObservable(), maxConcurrent: maxConcurrent)
    }
}

extension ObservableType {
    /// Merges the elements of every sequence in `sources` into one sequence; completes when
    /// all have completed, and the first error ends it.
    public static func merge<Collection: Swift.Collection>(_ sources: Collection) -> Observable<Element>
        where Collection.Element == Observable<Element> {
        MergeArray(sources: Array(sources))
    }

    /// Merges the elements of every sequence in `sources` into one sequence; completes when
    /// all have completed, and the first error ends it.
    public static func merge(_ sources: [Observable<Element>]) -> Observable<Element> {
        MergeArray(sources: sources)
    }

    /// Merges the elements of every sequence in `sources` into one sequence; completes when
    /// all have completed, and the first error ends it.
    public static func merge(_ sources: Observable<Element>...) -> Observable<Element> {
        MergeArray(sources: sources)
    }
}

// MARK: - FlatteningSink

// Lock order (RxSwift #2711): decisions are taken under the sink's lock and acted on after
// it is released. Elements are still forwarded under the lock, which serialises them, but
// no subscription is ever disposed under it: a source whose teardown takes another lock,
// held by a thread that is sending into the merge, would deadlock. `terminating`, set under
// the lock by the terminal event, drops what arrives before the sink is disposed.

/// What ``MergeSink`` and ``MergeLimitedSink`` share, as RxSwift's `MergeSink` holds it
/// for its subclasses: the lock, the subscriptions, the inner observers, the forwarding and
/// the terminal events. They differ only in whether a mapped inner sequence is subscribed
/// to at once (``admit(_:)``) and what takes the slot of one that completed
/// (``nextQueued()``).
///
/// Completes once the outer sequence has completed and no inner one is running or waiting;
/// the first error, outer or inner, ends everything. Internal, as its subclasses.
class FlatteningSink<SourceElement, Inner: ObservableConvertibleType>: Sink<SourceElement, Inner.Element> {
    /// Recursive: elements are forwarded while it is held, and a downstream observer may
    /// synchronously push into the outer or an inner sequence again.
    final let lock = Lock.make(recursive: true)
    final let group = CompositeDisposable()
    final let sourceSubscription = SingleAssignmentDisposable()

    // Guarded by `lock`.
    final var activeCount = 0
    final var stopped = false
    final var terminating = false

    /// Whether a new outer element should be mapped at all; flatMapFirst says no while an
    /// inner sequence runs. Called with `lock` held.
    var subscribeNext: Bool { true }

    /// The inner sequence for an outer element.
    func performMap(_ element: SourceElement) throws -> Inner {
        rxAbstractMethod()
    }

    /// Whether `inner`, just mapped, is subscribed to now (it then takes a slot in
    /// `activeCount`); otherwise the sink keeps it for later. Called with `lock` held.
    func admit(_ inner: Inner) -> Bool {
        activeCount += 1
        return true
    }

    /// The kept sequence that takes the slot of an inner one that completed, if any.
    /// Called with `lock` held, while not terminating. (An `Observable`, not an `Inner?`:
    /// an optional of a generic type costs a metadata look-up per call.)
    func nextQueued() -> Observable<Inner.Element>? {
        nil
    }

    /// Subscribes to the outer sequence.
    final func run(_ source: Observable<SourceElement>) -> Disposable {
        _ = group.insert(sourceSubscription)
        sourceSubscription.setDisposable(source.subscribe(node: self))
        return group
    }

    override func onNext(_ element: SourceElement) {
        guard let inner = nextElementArrived(element) else { return }
        subscribeInner(inner)
    }

    /// Maps the element; returns the sequence to subscribe to now, if any (as an
    /// `Observable`, for the reason given at ``nextQueued()``).
    private func nextElementArrived(_ element: SourceElement) -> Observable<Inner.Element>? {
        lock.lock()
        if terminating || !subscribeNext {
            lock.unlock()
            return nil
        }
        let inner: Inner
        do {
            inner = try performMap(element)
        } catch {
            terminating = true
            forwardError(error)
            lock.unlock()
            dispose()
            return nil
        }
        let now = admit(inner)
        lock.unlock()
        return now ? inner.asObservable() : nil
    }

    override func onError(_ error: Swift.Error) {
        terminate(error)
    }

    override func onCompleted() {
        lock.lock()
        stopped = true
        let terminated = checkCompleted()
        lock.unlock()
        if terminated { dispose() } else { sourceSubscription.dispose() }
    }

    /// Subscribes to one inner sequence (outside the lock, as RxSwift: a synchronous inner
    /// takes the lock per event).
    final func subscribeInner(_ source: Observable<Inner.Element>) {
        let subscription = SingleAssignmentDisposable()
        // nil once the group is disposed: the sink has terminated, nothing to subscribe.
        guard let key = group.insert(subscription) else { return }
        let observer = FlatteningSinkInner(parent: self, disposeKey: key)
        subscription.setDisposable(source.subscribe(node: observer))
    }

    /// Forwards an inner element unless the sink is terminating.
    final func forwardInner(_ element: Inner.Element) {
        lock.lock()
        if !terminating { forwardNext(element) }
        lock.unlock()
    }

    /// Forwards the first error, then disposes everything outside the lock.
    final func terminate(_ error: Swift.Error) {
        lock.lock()
        if terminating {
            lock.unlock()
            return
        }
        terminating = true
        forwardError(error)
        lock.unlock()
        dispose()
    }

    /// An inner sequence completed: unsubscribes it (outside the lock), then subscribes the
    /// next kept one in its slot, or completes if nothing else can emit.
    final func innerCompleted(_ disposeKey: CompositeDisposable.DisposeKey) {
        group.remove(for: disposeKey)
        lock.lock()
        if !terminating, let next = nextQueued() {
            // The slot passes to the next kept sequence: activeCount is unchanged.
            lock.unlock()
            subscribeInner(next)
            return
        }
        activeCount -= 1
        let terminated = checkCompleted()
        lock.unlock()
        if terminated { dispose() }
    }

    /// Completes when nothing can emit any more; returns whether it did, and the caller
    /// then disposes once the lock is released. Called with `lock` held.
    final func checkCompleted() -> Bool {
        if stopped && activeCount == 0 && !terminating {
            terminating = true
            forwardCompleted()
            return true
        }
        return false
    }
}

/// Observes one inner sequence of a ``FlatteningSink``.
private final class FlatteningSinkInner<SourceElement, Inner: ObservableConvertibleType>: ObserverNode<Inner.Element> {
    private let parent: FlatteningSink<SourceElement, Inner>
    private let disposeKey: CompositeDisposable.DisposeKey

    init(parent: FlatteningSink<SourceElement, Inner>, disposeKey: CompositeDisposable.DisposeKey) {
        self.parent = parent
        self.disposeKey = disposeKey
    }

    override func onNext(_ element: Inner.Element) {
        parent.forwardInner(element)
    }

    override func onError(_ error: Swift.Error) {
        parent.terminate(error)
    }

    override func onCompleted() {
        parent.innerCompleted(disposeKey)
    }
}

// MARK: - MergeSink

/// Flattens inner sequences as they come: each mapped element is subscribed to at once
/// (unless ``FlatteningSink/subscribeNext`` says no) and their elements are forwarded as
/// they arrive. Shared by merge, flatMap and flatMapFirst, hence internal.
class MergeSink<SourceElement, Inner: ObservableConvertibleType>: FlatteningSink<SourceElement, Inner> {
    /// Subscribes to a fixed list of sequences, with no outer sequence.
    final func run(_ sources: [Observable<Inner.Element>]) -> Disposable {
        lock.performLocked { activeCount += sources.count }
        for source in sources {
            subscribeInner(source)
        }
        lock.lock()
        stopped = true
        let terminated = checkCompleted()
        lock.unlock()
        if terminated { dispose() }
        return group
    }
}

// MARK: - MergeLimitedSink

/// Flattens inner sequences with at most `maxConcurrent` subscribed at once; the mapped
/// sequences beyond that wait in a queue, in arrival order, and one is subscribed whenever
/// a running one completes. Shared by merge(maxConcurrent:), concat() and concatMap, hence
/// internal.
class MergeLimitedSink<SourceElement, Inner: ObservableConvertibleType>: FlatteningSink<SourceElement, Inner> {
    private let maxConcurrent: Int
    // Guarded by `lock`.
    private let queue = RingBuffer<Inner>()

    init(maxConcurrent: Int, observer: ObserverNode<Inner.Element>, cancel: Cancelable) {
        self.maxConcurrent = maxConcurrent
        super.init(observer: observer, cancel: cancel)
    }

    override final func admit(_ inner: Inner) -> Bool {
        if activeCount < maxConcurrent {
            activeCount += 1
            return true
        }
        queue.enqueue(inner)
        return false
    }

    override final func nextQueued() -> Observable<Inner.Element>? {
        queue.dequeue()?.asObservable()
    }
}

// MARK: - Producers

private final class MergeIdentitySink<Inner: ObservableConvertibleType>: MergeSink<Inner, Inner> {
    override func performMap(_ element: Inner) throws -> Inner {
        element
    }
}

private final class MergeLimitedIdentitySink<Inner: ObservableConvertibleType>: MergeLimitedSink<Inner, Inner> {
    override func performMap(_ element: Inner) throws -> Inner {
        element
    }
}

private final class Merge<Inner: ObservableConvertibleType>: Producer<Inner.Element> {
    private let source: Observable<Inner>

    init(source: Observable<Inner>) {
        self.source = source
    }

    override func run(_ observer: ObserverNode<Inner.Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = MergeIdentitySink<Inner>(observer: observer, cancel: cancel)
        let subscription = sink.run(source)
        return (sink, subscription)
    }
}

private final class MergeArray<Element>: Producer<Element> {
    private let sources: [Observable<Element>]

    init(sources: [Observable<Element>]) {
        self.sources = sources
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = MergeIdentitySink<Observable<Element>>(observer: observer, cancel: cancel)
        let subscription = sink.run(sources)
        return (sink, subscription)
    }
}

private final class MergeLimited<Inner: ObservableConvertibleType>: Producer<Inner.Element> {
    private let source: Observable<Inner>
    private let maxConcurrent: Int

    init(source: Observable<Inner>, maxConcurrent: Int) {
        self.source = source
        self.maxConcurrent = maxConcurrent
    }

    override func run(_ observer: ObserverNode<Inner.Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = MergeLimitedIdentitySink<Inner>(maxConcurrent: maxConcurrent, observer: observer, cancel: cancel)
        let subscription = sink.run(source)
        return (sink, subscription)
    }
}
