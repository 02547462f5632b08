import Synchronization

extension ObservableType {
    /// Subscribes to the source, and later disposes that subscription, on `scheduler`.
    /// Events are not moved: they arrive wherever the source sends them (use
    /// `observe(on:)` for that).
    public func subscribe(on scheduler: ImmediateSchedulerType) -> Observable<Element> {
        SubscribeOn(source: self, scheduler: scheduler)
    }

    /// Renamed `subscribe(on:)` in RxSwift 6.
    @available(*, deprecated, renamed: "subscribe(on:)")
    public func subscribeOn(_ scheduler: ImmediateSchedulerType) -> Observable<Element> {
        subscribe(on: scheduler)
    }
}

/// Keeps the source as given rather than `asObservable()`: like RxSwift, it subscribes
/// whatever type it was handed, so a wrapper's own termination cannot dispose the source
/// subscription ahead of the scheduled disposal.
private final class SubscribeOn<Source: ObservableType>: Producer<Source.Element> {
    typealias Element = Source.Element

    private let source: Source
    private let scheduler: ImmediateSchedulerType
    private let isConcurrentMain: Bool

    init(source: Source, scheduler: ImmediateSchedulerType) {
        self.source = source
        self.scheduler = scheduler
        isConcurrentMain = scheduler is ConcurrentMainScheduler
    }

    override func subscribe(node observer: ObserverNode<Element>) -> Disposable {
        // Control traits subscribe on the loop they already run on: subscribe now, with
        // one object instead of the scheduling sink and its three disposables.
        guard isConcurrentMain, MainScheduler.isMainThread else { return super.subscribe(node: observer) }
        if !CurrentThreadScheduler.isScheduleRequired {
            return subscribeOnLoop(observer)
        }
        return CurrentThreadScheduler.runAsTrampolineOwner {
            subscribeOnLoop(observer)
        }
    }

    private func subscribeOnLoop(_ observer: ObserverNode<Element>) -> Disposable {
        let subscription = LoopSubscription(observer: observer)
        if let observable = source as? Observable<Element> {
            subscription.setSubscription(observable.subscribe(node: subscription))
        } else {
            subscription.setSubscription(source.subscribe(subscription))
        }
        return subscription
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = SubscribeOnSink<Element>(observer: observer, cancel: cancel)
        // Until the scheduled subscription runs, disposing cancels it; afterwards it is
        // replaced by a disposable that disposes the source subscription on the scheduler.
        let everything = SerialDisposable()
        let pending = SingleAssignmentDisposable()
        everything.disposable = pending
        let scheduler = self.scheduler
        let source = self.source
        pending.setDisposable(scheduler.schedule(sink) { sink in
            let subscription: Disposable
            if let observable = source as? Observable<Element> {
                subscription = observable.subscribe(node: sink)
            } else {
                subscription = source.subscribe(sink)
            }
            everything.disposable = ScheduledDisposable(scheduler: scheduler, disposable: subscription)
            return Disposables.create()
        })
        return (sink, everything)
    }
}

private final class SubscribeOnSink<Element>: Sink<Element, Element> {
    override func onNext(_ element: Element) {
        forwardNext(element)
    }
}

/// `subscribe(on: ConcurrentMainScheduler.instance)` subscribed on the loop thread: the
/// sink and the disposable in one. Drops events once disposed and disposes the source
/// subscription on the loop (at once when already there), as `ScheduledDisposable` would.
private final class LoopSubscription<Element>: ObserverNode<Element>, Cancelable {
    private static var disposedBit: Int { 1 }
    private static var setBit: Int { 2 }

    private let observer: ObserverNode<Element>
    private let state = Atomic<Int>(0)
    // Guarded by `state`, as in `SinkDisposer`.
    @exclusivity(unchecked) private var subscription: Disposable?

    init(observer: ObserverNode<Element>) {
        self.observer = observer
    }

    var isDisposed: Bool {
        state.load(ordering: .acquiring) & Self.disposedBit != 0
    }

    override func onNext(_ element: Element) {
        if state.load(ordering: .relaxed) & Self.disposedBit != 0 { return }
        observer.onNext(element)
    }

    override func onError(_ error: Swift.Error) {
        if isDisposed { return }
        observer.onError(error)
        dispose()
    }

    override func onCompleted() {
        if isDisposed { return }
        observer.onCompleted()
        dispose()
    }

    /// A source that terminated while subscribing has its subscription disposed here.
    func setSubscription(_ subscription: Disposable) {
        self.subscription = subscription
        let previous = state.bitwiseOr(Self.setBit, ordering: .acquiringAndReleasing).oldValue
        if previous & Self.disposedBit != 0 {
            disposeSubscription()
        }
    }

    func dispose() {
        let previous = state.bitwiseOr(Self.disposedBit, ordering: .acquiringAndReleasing).oldValue
        if previous & Self.disposedBit != 0 { return }
        if previous & Self.setBit != 0 {
            disposeSubscription()
        }
    }

    private func disposeSubscription() {
        guard let subscription = subscription.take() else { return }
        _ = ConcurrentMainScheduler.instance.schedule(subscription) { subscription in
            subscription.dispose()
            return Disposables.create()
        }
    }
}
