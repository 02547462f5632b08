extension PrimitiveSequenceType where Trait == SingleTrait {
    /// A single of what `work` returns (or throws), run in a new `Task` on each
    /// subscription (`Task.detached` with `detached: true`); disposing cancels the task.
    @_disfavoredOverload
    public static func create(
        detached: Bool = false,
        priority: TaskPriority? = nil,
        work: @Sendable @escaping () async throws -> Element
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable.create { observer in
            let operation: @Sendable () async -> Void = {
                do {
                    let element = try await work()
                    observer.onNext(element)
                    observer.onCompleted()
                } catch {
                    observer.onError(error)
                }
            }
            let task = detached
                ? Task.detached(priority: priority, operation: operation)
                : Task(priority: priority, operation: operation)
            return Disposables.create { task.cancel() }
        })
    }

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
}
