extension ObservableConvertibleType {
    /// The elements as an async sequence: `for try await element in observable.values`.
    ///
    /// The stream subscribes when made and buffers elements the loop has not taken yet.
    /// An error is thrown from the loop. Ending the loop early, or cancelling its task,
    /// disposes the subscription; a disposal the sequence did not end itself finishes the
    /// stream with `CancellationError` (so a cancelled loop throws it, as in RxSwift).
    public var values: AsyncThrowingStream<Element, Swift.Error> {
        AsyncThrowingStream<Element, Swift.Error> { continuation in
            // Set by the terminal event before `onDisposed` runs, on the same thread.
            let terminated = TerminationFlag()
            let disposable = asObservable().subscribe(
                onNext: { element in
                    nonisolated(unsafe) let element = element
                    continuation.yield(element)
                },
                onError: { error in
                    terminated.value = true
                    continuation.finish(throwing: error)
                },
                onCompleted: {
                    terminated.value = true
                    continuation.finish()
                },
                onDisposed: {
                    if !terminated.value {
                        continuation.finish(throwing: CancellationError())
                    }
                }
            )
            let subscription = UncheckedSendable(disposable)
            continuation.onTermination = { termination in
                if case .cancelled = termination {
                    subscription.value.dispose()
                }
            }
        }
    }
}

/// Whether the sequence ended itself; written and read by the subscription's handlers,
/// which the Rx grammar runs one at a time.
private final class TerminationFlag: @unchecked Sendable {
    var value = false
}
