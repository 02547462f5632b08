// merge, and the two sink bases the flattening operators share, as in RxSwift:
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

// MARK: - MergeSink

/// Flattens inner sequences as they come: each mapped element is subscribed to at once
/// (unless ``subscribeNext`` says no) and their elements are forwarded as they arrive.
///
/// Completes once the outer sequence has completed and no inner one is running; the first
/// error ends everything. Shared by merge, flatMap and flatMapFirst, hence internal.
class MergeSink<SourceElement, Inner: ObservableConvertibleType>: Sink<SourceElement, Inner.Element> {
    /// Recursive: elements are forwarded while it is held, and a downstream observer may
    /// synchronously push into the outer or an inner sequence again.
    final let lock = Lock.make(recursive: true)
    final let group = CompositeDisposable()
    final let sourceSubscription = SingleAssignmentDisposable()

    // Guarded by `lock`.
    final var activeCount = 0
    final var stopped = false

    /// Whether a new outer element should be mapped and subscribed to; flatMapFirst says no
    /// while an inner sequence runs. Called with `lock` held.
    var subscribeNext: Bool { true }

    /// The inner sequence for an outer element.
    func performMap(_ element: SourceElement) throws -> Inner {
        rxAbstractMethod()
    }

    /// Subscribes to the outer sequence.
    final func run(_ source: Observable<SourceElement>) -> Disposable {
        _ = group.insert(sourceSubscription)
        sourceSubscription.setDisposable(source.subscribe(node: self))
        return group
    }

    /// Subscribes to a fixed list of sequences, with no outer sequence.
    final func run(_ sources: [Observable<Inner.Element>]) -> Disposable {
        lock.performLocked { activeCount += sources.count }
        for source in sources {
            subscribeInner(source)
        }
        lock.performLocked {
            stopped = true
            checkCompleted()
        }
        return group
    }

    override func onNext(_ element: SourceElement) {
        guard let inner = nextElementArrived(element) else { return }
        subscribeInner(inner.asObservable())
    }

    private func nextElementArrived(_ element: SourceElement) -> Inner? {
        lock.lock()
        defer { lock.unlock() }
        if !subscribeNext { return nil }
        do {
            let inner = try performMap(element)
            activeCount += 1
            return inner
        } catch {
            forwardError(error)
            dispose()
            return nil
        }
    }

    override func onError(_ error: Swift.Error) {
        lock.lock()
        forwardError(error)
        dispose()
        lock.unlock()
    }

    override func onCompleted() {
        lock.lock()
        stopped = true
        sourceSubscription.dispose()
        checkCompleted()
        lock.unlock()
    }

    /// Subscribes to one inner sequence (outside the lock, as RxSwift: a synchronous inner
    /// takes the lock per event).
    final func subscribeInner(_ source: Observable<Inner.Element>) {
        let subscription = SingleAssignmentDisposable()
        // nil once the group is disposed: the sink has terminated, nothing to subscribe.
        guard let key = group.insert(subscription) else { return }
        let observer = MergeSinkInner(parent: self, disposeKey: key)
        subscription.setDisposable(source.subscribe(node: observer))
    }

    /// Completes when nothing can emit any more. Called with `lock` held.
    final func checkCompleted() {
        if stopped && activeCount == 0 {
            forwardCompleted()
            dispose()
        }
    }
}

/// Observes one inner sequence of a ``MergeSink``.
private final class MergeSinkInner<SourceElement, Inner: ObservableConvertibleType>: ObserverNode<Inner.Element> {
    private let parent: MergeSink<SourceElement, Inner>
    private let disposeKey: CompositeDisposable.DisposeKey

    init(parent: MergeSink<SourceElement, Inner>, disposeKey: CompositeDisposable.DisposeKey) {
        self.parent = parent
        self.disposeKey = disposeKey
    }

    override func onNext(_ element: Inner.Element) {
        let lock = parent.lock
        lock.lock()
        parent.forwardNext(element)
        lock.unlock()
    }

    override func onError(_ error: Swift.Error) {
        let lock = parent.lock
        lock.lock()
        parent.forwardError(error)
        parent.dispose()
        lock.unlock()
    }

    override func onCompleted() {
        let lock = parent.lock
        lock.lock()
        parent.group.remove(for: disposeKey)
        parent.activeCount -= 1
        parent.checkCompleted()
        lock.unlock()
    }
}

// MARK: - MergeLimitedSink

/// Flattens inner sequences with at most `maxConcurrent` subscribed at once; the mapped
/// sequences beyond that wait in a queue, in arrival order, and one is subscribed whenever
/// a running one completes.
///
/// Completes once the outer sequence has completed, the queue is empty and no inner one is
/// running; the first error ends everything. Shared by merge(maxConcurrent:), concat() and
/// concatMap, hence internal.
class MergeLimitedSink<SourceElement, Inner: ObservableConvertibleType>: Sink<SourceElement, Inner.Element> {
    /// Recursive: elements are forwarded while it is held, and the next queued sequence is
    /// subscribed to under it when one completes.
    final let lock = Lock.make(recursive: true)
    final let group = CompositeDisposable()
    final let sourceSubscription = SingleAssignmentDisposable()
    private let maxConcurrent: Int

    // Guarded by `lock`.
    final var activeCount = 0
    final var stopped = false
    final let queue = RingBuffer<Inner>()

    init(maxConcurrent: Int, observer: ObserverNode<Inner.Element>, cancel: Cancelable) {
        self.maxConcurrent = maxConcurrent
        super.init(observer: observer, cancel: cancel)
    }

    /// The inner sequence for an outer element.
    func performMap(_ element: SourceElement) throws -> Inner {
        rxAbstractMethod()
    }

    /// Subscribes to the outer sequence.
    final func run(_ source: Observable<SourceElement>) -> Disposable {
        _ = group.insert(sourceSubscription)
        sourceSubscription.setDisposable(source.subscribe(node: self))
        return group
    }

    /// Subscribes to one inner sequence.
    final func subscribeInner(_ inner: Inner) {
        let subscription = SingleAssignmentDisposable()
        guard let key = group.insert(subscription) else { return }
        let observer = MergeLimitedSinkInner(parent: self, disposeKey: key)
        subscription.setDisposable(inner.asObservable().subscribe(node: observer))
    }

    override func onNext(_ element: SourceElement) {
        guard let inner = nextElementArrived(element) else { return }
        subscribeInner(inner)
    }

    /// Maps the element; returns the sequence to subscribe to now, or queues it.
    private func nextElementArrived(_ element: SourceElement) -> Inner? {
        lock.lock()
        defer { lock.unlock() }
        let inner: Inner
        do {
            inner = try performMap(element)
        } catch {
            forwardError(error)
            dispose()
            return nil
        }
        if activeCount < maxConcurrent {
            activeCount += 1
            return inner
        }
        queue.enqueue(inner)
        return nil
    }

    override func onError(_ error: Swift.Error) {
        lock.lock()
        forwardError(error)
        dispose()
        lock.unlock()
    }

    override func onCompleted() {
        lock.lock()
        if activeCount == 0 {
            forwardCompleted()
            dispose()
        } else {
            sourceSubscription.dispose()
        }
        stopped = true
        lock.unlock()
    }
}

/// Observes one inner sequence of a ``MergeLimitedSink``.
private final class MergeLimitedSinkInner<SourceElement, Inner: ObservableConvertibleType>: ObserverNode<Inner.Element> {
    private let parent: MergeLimitedSink<SourceElement, Inner>
    private let disposeKey: CompositeDisposable.DisposeKey

    init(parent: MergeLimitedSink<SourceElement, Inner>, disposeKey: CompositeDisposable.DisposeKey) {
        self.parent = parent
        self.disposeKey = disposeKey
    }

    override func onNext(_ element: Inner.Element) {
        let lock = parent.lock
        lock.lock()
        parent.forwardNext(element)
        lock.unlock()
    }

    override func onError(_ error: Swift.Error) {
        let lock = parent.lock
        lock.lock()
        parent.forwardError(error)
        parent.dispose()
        lock.unlock()
    }

    override func onCompleted() {
        let lock = parent.lock
        lock.lock()
        parent.group.remove(for: disposeKey)
        if let next = parent.queue.dequeue() {
            // The slot passes to the next queued sequence: activeCount is unchanged.
            parent.subscribeInner(next)
        } else {
            parent.activeCount -= 1
            if parent.stopped && parent.activeCount == 0 {
                parent.forwardCompleted()
                parent.dispose()
            }
        }
        lock.unlock()
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
