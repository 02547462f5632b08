import Synchronization

extension ObservableType {
    /// Subscribes to this sequence again each time it ends with an error, without limit.
    public func retry() -> Observable<Element> {
        Retry(source: asObservable(), maxAttemptCount: nil)
    }

    /// Subscribes to this sequence up to `maxAttemptCount` times in total while it ends
    /// with an error; the last error is forwarded. (`retry(2)` retries once; `retry(0)`
    /// completes without subscribing, as in RxSwift.)
    public func retry(_ maxAttemptCount: Int) -> Observable<Element> {
        precondition(maxAttemptCount >= 0, "retry: maxAttemptCount can't be negative")
        return Retry(source: asObservable(), maxAttemptCount: maxAttemptCount)
    }
}

private final class Retry<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let maxAttemptCount: Int?

    init(source: Observable<Element>, maxAttemptCount: Int?) {
        self.source = source
        self.maxAttemptCount = maxAttemptCount
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = RetrySink(source: source, maxAttemptCount: maxAttemptCount, observer: observer, cancel: cancel)
        sink.scheduleAttempt()
        return (sink, sink.subscription)
    }
}

/// Subscribes to the source again on each error.
///
/// A source that fails while it is being subscribed would otherwise recurse once per
/// attempt; instead attempts go through a work-in-progress counter: whoever raises it
/// from zero runs attempts until it drops back, on whatever thread the failure came.
private final class RetrySink<Element>: Sink<Element, Element> {
    let subscription = SerialDisposable()
    private let source: Observable<Element>
    /// Attempts left; `nil` means unbounded. Touched only by the attempt loop.
    private var remaining: Int?
    private var lastError: Swift.Error?
    private let pendingAttempts = Atomic<Int>(0)

    init(source: Observable<Element>, maxAttemptCount: Int?, observer: ObserverNode<Element>, cancel: Cancelable) {
        self.source = source
        self.remaining = maxAttemptCount
        super.init(observer: observer, cancel: cancel)
    }

    func scheduleAttempt() {
        if pendingAttempts.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue != 0 {
            return
        }
        repeat {
            attempt()
        } while pendingAttempts.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue != 0
    }

    private func attempt() {
        if isDisposed { return }
        if let left = remaining {
            if left == 0 {
                if let lastError {
                    forwardError(lastError)
                } else {
                    forwardCompleted()
                }
                dispose()
                return
            }
            remaining = left - 1
        }
        // Setting the new slot disposes the failed subscription before resubscribing.
        let current = SingleAssignmentDisposable()
        subscription.disposable = current
        current.setDisposable(source.subscribe(node: self))
    }

    override func onNext(_ element: Element) {
        forwardNext(element)
    }

    override func onError(_ error: Swift.Error) {
        lastError = error
        scheduleAttempt()
    }
}
