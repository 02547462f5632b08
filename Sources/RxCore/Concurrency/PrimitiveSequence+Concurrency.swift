extension PrimitiveSequenceType where Trait == SingleTrait {
    /// Subscribes and waits for the element; throws the single's error.
    ///
    /// Cancelling the awaiting task disposes the subscription and throws
    /// `CancellationError`.
    public var value: Element {
        get async throws {
            try await AwaitedSubscription<Element>.value { report in
                primitiveSequence.subscribe { event in
                    switch event {
                    case .success(let element): report(.success(element))
                    case .failure(let error): report(.failure(error))
                    }
                }
            }
        }
    }

    /// A single of what `block` returns (or throws), run in a new `Task` on each
    /// subscription; disposing cancels the task.
    public static func from(_ block: @escaping () async throws -> Element) -> Single<Element> {
        let block = UncheckedSendable(block)
        return Single(raw: Observable.create { observer in
            let task = Task {
                do {
                    let element = try await block.value()
                    observer.onNext(element)
                    observer.onCompleted()
                } catch {
                    observer.onError(error)
                }
            }
            return Disposables.create { task.cancel() }
        })
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// Subscribes and waits for the element, `nil` when the maybe completes empty; throws
    /// the maybe's error.
    ///
    /// Cancelling the awaiting task disposes the subscription and throws
    /// `CancellationError`.
    public var value: Element? {
        get async throws {
            try await AwaitedSubscription<Element?>.value { report in
                primitiveSequence.subscribe { event in
                    switch event {
                    case .success(let element): report(.success(element))
                    case .error(let error): report(.failure(error))
                    case .completed: report(.success(nil))
                    }
                }
            }
        }
    }

    /// A maybe of what `block` returns (or throws), run in a new `Task` on each
    /// subscription, or an empty maybe for a `nil` block; disposing cancels the task.
    public static func from(_ block: (() async throws -> Element)?) -> Maybe<Element> {
        guard let block else { return Maybe(raw: Observable.empty()) }
        let boxed = UncheckedSendable(block)
        return Maybe(raw: Observable.create { observer in
            let task = Task {
                do {
                    let element = try await boxed.value()
                    observer.onNext(element)
                    observer.onCompleted()
                } catch {
                    observer.onError(error)
                }
            }
            return Disposables.create { task.cancel() }
        })
    }
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Never {
    /// Subscribes and waits for the completion; throws the completable's error.
    ///
    /// Cancelling the awaiting task disposes the subscription and throws
    /// `CancellationError`.
    public var value: Void {
        get async throws {
            try await AwaitedSubscription<Void>.value { report in
                primitiveSequence.subscribe { event in
                    switch event {
                    case .completed: report(.success(()))
                    case .error(let error): report(.failure(error))
                    }
                }
            }
        }
    }

    /// A completable that runs `block` in a new `Task` on each subscription and completes
    /// when it returns (or fails with what it throws); disposing cancels the task.
    public static func from(_ block: @escaping () async throws -> Void) -> Completable {
        let block = UncheckedSendable(block)
        return Completable(raw: Observable.create { observer in
            let task = Task {
                do {
                    try await block.value()
                    observer.onCompleted()
                } catch {
                    observer.onError(error)
                }
            }
            return Disposables.create { task.cancel() }
        })
    }
}
