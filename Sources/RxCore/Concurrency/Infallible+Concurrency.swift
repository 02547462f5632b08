extension InfallibleType {
    /// The elements as an async sequence: `for await element in infallible.values`.
    ///
    /// The stream subscribes when made and buffers elements the loop has not taken yet.
    /// Ending the loop early, or cancelling its task, disposes the subscription; a
    /// subscription disposed from elsewhere finishes the stream.
    public var values: AsyncStream<Element> {
        AsyncStream<Element> { continuation in
            let disposable = asObservable().subscribe(
                onNext: { element in
                    nonisolated(unsafe) let element = element
                    continuation.yield(element)
                },
                onCompleted: { continuation.finish() },
                onDisposed: { continuation.finish() }
            )
            let subscription = UncheckedSendable(disposable)
            continuation.onTermination = { _ in
                subscription.value.dispose()
            }
        }
    }
}
