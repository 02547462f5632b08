extension AsyncSequence {
    /// This async sequence as an observable: each subscription iterates it in a new
    /// `Task` (detached from the current actor with `detached: true`) and forwards its
    /// elements, then completes; a thrown error fails the observable. Disposing cancels
    /// the task; a `CancellationError` ends the observable as a completion.
    public func asObservable(detached: Bool = false) -> Observable<Element> {
        Observable.create { observer in
            // The loop is built here and handed to the task as one opaque closure: the
            // task then needs nothing of `Self` (its metatype is not Sendable).
            let forward: () async -> Void = {
                do {
                    for try await element in self {
                        observer.onNext(element)
                    }
                    observer.onCompleted()
                } catch is CancellationError {
                    observer.onCompleted()
                } catch {
                    observer.onError(error)
                }
            }
            let body = UncheckedSendable(forward)
            let iterate: @Sendable () async -> Void = { await body.value() }
            let task = detached ? Task.detached(operation: iterate) : Task(operation: iterate)
            return Disposables.create { task.cancel() }
        }
    }
}
