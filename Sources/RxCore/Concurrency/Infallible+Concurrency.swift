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

    /// An infallible of what `block` returns, run in a new `Task` on each subscription;
    /// disposing cancels the task.
    public static func from(_ block: @escaping () async -> Element) -> Infallible<Element> {
        let block = UncheckedSendable(block)
        return Infallible(Observable.create { observer in
            let task = Task {
                let element = await block.value()
                observer.onNext(element)
                observer.onCompleted()
            }
            return Disposables.create { task.cancel() }
        })
    }
}
