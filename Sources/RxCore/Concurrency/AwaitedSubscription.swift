/// One subscription awaited by an `async` caller (`Single.value` and its kin): the
/// continuation is resumed exactly once, with the subscription's result or, when the
/// awaiting task is cancelled, with `CancellationError` (the subscription is disposed).
///
/// Thread-safe: the subscription's events, the task's cancellation handler and the
/// awaiting task may run on three threads; `lock` guards the state.
final class AwaitedSubscription<Value>: @unchecked Sendable {
    private let lock = Lock.make()
    private var continuation: CheckedContinuation<UncheckedSendable<Value>, Swift.Error>?
    private var subscription: Disposable?
    private var isDone = false

    /// Subscribes through `subscribe` and waits for the first result it reports.
    static func value(
        subscribe: (_ report: @escaping (Result<Value, Swift.Error>) -> Void) -> Disposable
    ) async throws -> Value {
        let awaited = AwaitedSubscription<Value>()
        let boxed = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                awaited.start(continuation, subscribe: subscribe)
            }
        } onCancel: {
            awaited.cancel()
        }
        return boxed.value
    }

    private func start(
        _ continuation: CheckedContinuation<UncheckedSendable<Value>, Swift.Error>,
        subscribe: (_ report: @escaping (Result<Value, Swift.Error>) -> Void) -> Disposable
    ) {
        lock.lock()
        if isDone {
            // Cancelled before the subscribe.
            lock.unlock()
            continuation.resume(throwing: CancellationError())
            return
        }
        self.continuation = continuation
        lock.unlock()

        let subscription = subscribe { [self] result in finish(result) }

        lock.lock()
        if isDone {
            // The result, or a cancellation, came during the subscribe.
            lock.unlock()
            subscription.dispose()
            return
        }
        self.subscription = subscription
        lock.unlock()
    }

    private func finish(_ result: Result<Value, Swift.Error>) {
        lock.lock()
        isDone = true
        let continuation = self.continuation.take()
        subscription = nil
        lock.unlock()
        continuation?.resume(with: result.map { UncheckedSendable($0) })
    }

    private func cancel() {
        lock.lock()
        isDone = true
        let continuation = self.continuation.take()
        let subscription = self.subscription.take()
        lock.unlock()
        subscription?.dispose()
        continuation?.resume(throwing: CancellationError())
    }
}
