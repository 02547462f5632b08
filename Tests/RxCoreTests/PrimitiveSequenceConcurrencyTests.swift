import Foundation
import RxCore
import XCTest

/// `Single/Maybe/Completable.value` and their `from(async)` forms.
final class PrimitiveSequenceConcurrencyTests: XCTestCase {
    func testSingleValue() async throws {
        let value = try await Single.just(5).value
        XCTAssertEqual(value, 5)
    }

    func testSingleValueFromAnotherThread() async throws {
        let value = try await Single.just(5).delay(.milliseconds(5), scheduler: ConcurrentDispatchQueueScheduler(qos: .default)).value
        XCTAssertEqual(value, 5)
    }

    func testSingleValueThrows() async {
        do {
            _ = try await Single<Int>.error(testError).value
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual("\(error)", "\(testError)")
        }
    }

    func testMaybeValue() async throws {
        let some = try await Maybe.just(1).value
        let none = try await Maybe<Int>.empty().value
        XCTAssertEqual(some, 1)
        XCTAssertNil(none)
        do {
            _ = try await Maybe<Int>.error(testError).value
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual("\(error)", "\(testError)")
        }
    }

    func testCompletableValue() async throws {
        try await Completable.empty().value
        do {
            try await Completable.error(testError).value
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual("\(error)", "\(testError)")
        }
    }

    func testCancellingTheTaskDisposesAndThrowsCancellationError() async {
        let subscribed = expectation(description: "subscribed")
        let disposed = expectation(description: "disposed")
        let task = Task {
            try await Single<Int>.never().do(onSubscribed: { subscribed.fulfill() }, onDispose: { disposed.fulfill() }).value
        }
        await fulfillment(of: [subscribed], timeout: 5)
        task.cancel()
        await fulfillment(of: [disposed], timeout: 5)
        do {
            _ = try await task.value
            XCTFail("expected CancellationError")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
    }

    func testAnAlreadyCancelledTaskNeverSubscribes() async {
        let subscriptions = LockedBox(0)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await Completable.never().do(onSubscribe: { subscriptions.mutate { $0 += 1 } }).value
        }
        do {
            try await task.value
            XCTFail("expected CancellationError")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertEqual(subscriptions.value, 0)
    }

    func testManyConcurrentAwaits() async throws {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        let sum = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<50 {
                group.addTask {
                    try await Single.just(index).observe(on: scheduler).value
                }
            }
            return try await group.reduce(0, +)
        }
        XCTAssertEqual(sum, (0..<50).reduce(0, +))
    }

    // MARK: - from(async)

    func testSingleFromAsyncBlock() async throws {
        let value = try await Single<Int>.from {
            try await Task.sleep(nanoseconds: 1_000_000)
            return 42
        }.value
        XCTAssertEqual(value, 42)
        do {
            _ = try await Single<Int>.from { throw testError }.value
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual("\(error)", "\(testError)")
        }
    }

    func testMaybeAndCompletableFromAsyncBlock() async throws {
        let some = try await Maybe<Int>.from { 3 }.value
        let none = try await Maybe<Int>.from(nil).value
        XCTAssertEqual(some, 3)
        XCTAssertNil(none)
        let ran = LockedBox(false)
        try await Completable.from { ran.value = true }.value
        XCTAssertTrue(ran.value)
    }

    func testDisposingCancelsTheBlocksTask() async {
        let started = expectation(description: "started")
        let cancelled = expectation(description: "cancelled")
        let subscription = Single<Int>.from {
            started.fulfill()
            do {
                try await Task.sleep(nanoseconds: 10_000_000_000)
            } catch is CancellationError {
                cancelled.fulfill()
            }
            return 0
        }.subscribe(onSuccess: { _ in })
        await fulfillment(of: [started], timeout: 5)
        subscription.dispose()
        await fulfillment(of: [cancelled], timeout: 5)
    }
}
