extension SharedSequenceConvertibleType {
    /// The elements of this driver or signal as an async sequence:
    /// `for await element in driver.values` (it can't error, so there is no `try`).
    ///
    /// The stream subscribes when made and buffers elements the loop has not taken yet.
    /// Ending the loop early, or cancelling its task, disposes the subscription.
    ///
    /// **Bindery:** RxCocoa marks this `@MainActor`; here the elements arrive on
    /// RxCore's main loop, which need not be the Swift main actor, so it is not isolated.
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
