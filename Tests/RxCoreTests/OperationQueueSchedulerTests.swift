import Foundation
import RxCore
import XCTest

final class OperationQueueSchedulerTests: XCTestCase {
    func testRunsActionsOnTheQueue() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let scheduler = OperationQueueScheduler(operationQueue: queue, queuePriority: .high)
        XCTAssertTrue(scheduler.operationQueue === queue)
        XCTAssertEqual(scheduler.queuePriority, .high)
        let ran = expectation(description: "ran")
        let onQueue = LockedBox(false)
        _ = scheduler.schedule(5) { value in
            onQueue.value = OperationQueue.current === queue && value == 5
            ran.fulfill()
            return Disposables.create()
        }
        wait(for: [ran], timeout: 5)
        XCTAssertTrue(onQueue.value)
    }

    func testDisposingBeforeItRunsCancelsTheAction() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.isSuspended = true
        let scheduler = OperationQueueScheduler(operationQueue: queue)
        let ran = LockedBox(false)
        let disposable = scheduler.schedule(()) { _ in
            ran.value = true
            return Disposables.create()
        }
        disposable.dispose()
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
        XCTAssertFalse(ran.value)
    }

    func testObserveOnTheScheduler() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let scheduler = OperationQueueScheduler(operationQueue: queue)
        let done = expectation(description: "completed")
        let values = LockedBox<[Int]>([])
        let subscription = Observable.of(1, 2, 3).observe(on: scheduler).subscribe(
            onNext: { value in values.value.append(value) },
            onCompleted: { done.fulfill() }
        )
        wait(for: [done], timeout: 5)
        XCTAssertEqual(values.value, [1, 2, 3])
        subscription.dispose()
    }
}

/// A value shared with a queue's thread, behind a lock.
final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.lock(); defer { lock.unlock() }; return stored }
        set { lock.lock(); stored = newValue; lock.unlock() }
    }
}
