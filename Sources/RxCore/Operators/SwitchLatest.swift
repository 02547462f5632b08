extension ObservableType where Element: ObservableConvertibleType {
    /// Forwards the elements of the most recent inner sequence only: each new inner
    /// sequence disposes the previous one.
    ///
    /// Completes when the outer sequence and the current inner one have completed; the
    /// first error of the outer or the current inner sequence ends it.
    public func switchLatest() -> Observable<Element.Element> {
        SwitchLatest(source: asObservable())
    }
}

/// Keeps only the latest inner sequence: each outer element is mapped, the previous inner
/// subscription is disposed, and events of stale inner sequences are ignored (they are
/// told apart by a generation number). Shared by switchLatest and flatMapLatest, hence
/// internal.
class SwitchSink<SourceElement, Inner: ObservableConvertibleType>: Sink<SourceElement, Inner.Element> {
    /// Recursive: elements are forwarded while it is held, and a downstream observer may
    /// synchronously push into the outer or the inner sequence again.
    final let lock = Lock.make(recursive: true)
    private let sourceSubscription = SingleAssignmentDisposable()
    private let innerSubscription = SerialDisposable()

    // Guarded by `lock`.
    private var stopped = false
    private var latest = 0
    private var hasLatest = false

    /// The inner sequence for an outer element.
    func performMap(_ element: SourceElement) throws -> Inner {
        rxAbstractMethod()
    }

    /// Subscribes to the outer sequence.
    final func run(_ source: Observable<SourceElement>) -> Disposable {
        sourceSubscription.setDisposable(source.subscribe(node: self))
        return Disposables.create(sourceSubscription, innerSubscription)
    }

    override func onNext(_ element: SourceElement) {
        guard let (generation, inner) = nextElementArrived(element) else { return }
        let subscription = SingleAssignmentDisposable()
        // Disposes the previous inner subscription.
        innerSubscription.disposable = subscription
        let observer = SwitchSinkInner(parent: self, generation: generation, subscription: subscription)
        subscription.setDisposable(inner.subscribe(node: observer))
    }

    private func nextElementArrived(_ element: SourceElement) -> (Int, Observable<Inner.Element>)? {
        lock.lock()
        defer { lock.unlock() }
        do {
            let inner = try performMap(element).asObservable()
            hasLatest = true
            latest &+= 1
            return (latest, inner)
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
        if !hasLatest {
            forwardCompleted()
            dispose()
        }
        lock.unlock()
    }

    /// Whether `generation` is the current inner sequence. Called with `lock` held.
    fileprivate final func isLatest(_ generation: Int) -> Bool {
        latest == generation
    }

    /// The current inner sequence completed. Called with `lock` held.
    fileprivate final func latestCompleted() {
        hasLatest = false
        if stopped {
            forwardCompleted()
            dispose()
        }
    }
}

/// Observes one inner sequence of a ``SwitchSink``; ignores everything once a newer inner
/// sequence has arrived.
private final class SwitchSinkInner<SourceElement, Inner: ObservableConvertibleType>: ObserverNode<Inner.Element> {
    private let parent: SwitchSink<SourceElement, Inner>
    private let generation: Int
    private let subscription: Disposable

    init(parent: SwitchSink<SourceElement, Inner>, generation: Int, subscription: Disposable) {
        self.parent = parent
        self.generation = generation
        self.subscription = subscription
    }

    override func onNext(_ element: Inner.Element) {
        let lock = parent.lock
        lock.lock()
        if parent.isLatest(generation) {
            parent.forwardNext(element)
        }
        lock.unlock()
    }

    override func onError(_ error: Swift.Error) {
        let lock = parent.lock
        lock.lock()
        subscription.dispose()
        if parent.isLatest(generation) {
            parent.forwardError(error)
            parent.dispose()
        }
        lock.unlock()
    }

    override func onCompleted() {
        let lock = parent.lock
        lock.lock()
        subscription.dispose()
        if parent.isLatest(generation) {
            parent.latestCompleted()
        }
        lock.unlock()
    }
}

private final class SwitchIdentitySink<Inner: ObservableConvertibleType>: SwitchSink<Inner, Inner> {
    override func performMap(_ element: Inner) throws -> Inner {
        element
    }
}

private final class SwitchLatest<Inner: ObservableConvertibleType>: Producer<Inner.Element> {
    private let source: Observable<Inner>

    init(source: Observable<Inner>) {
        self.source = source
    }

    override func run(_ observer: ObserverNode<Inner.Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = SwitchIdentitySink<Inner>(observer: observer, cancel: cancel)
        let subscription = sink.run(source)
        return (sink, subscription)
    }
}
