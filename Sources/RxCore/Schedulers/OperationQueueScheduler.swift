import Foundation

/// Runs actions on an `OperationQueue`, each as an operation with `queuePriority`, as
/// RxSwift's scheduler of the same name. Disposing a scheduled action cancels it.
public class OperationQueueScheduler: ImmediateSchedulerType, @unchecked Sendable {
    /// The queue the actions run on.
    public let operationQueue: OperationQueue
    /// The priority of each operation.
    public let queuePriority: Operation.QueuePriority

    /// A scheduler on `operationQueue` whose operations have `queuePriority`.
    public init(operationQueue: OperationQueue, queuePriority: Operation.QueuePriority = .normal) {
        self.operationQueue = operationQueue
        self.queuePriority = queuePriority
    }

    /// Adds an operation that runs `action(state)` unless disposed first.
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let cancel = SingleAssignmentDisposable()
        // The queue runs the operation once, on one of its threads: handed over, not shared.
        let work = UncheckedSendable((state, action, cancel))
        let operation = BlockOperation {
            let (state, action, cancel) = work.value
            if cancel.isDisposed { return }
            cancel.setDisposable(action(state))
        }
        operation.queuePriority = queuePriority
        operationQueue.addOperation(operation)
        let sendableOperation = UncheckedSendable(operation)
        return Disposables.create {
            sendableOperation.value.cancel()
            cancel.dispose()
        }
    }
}
