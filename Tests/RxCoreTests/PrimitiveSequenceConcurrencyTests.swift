import Foundation
import RxCore
import XCTest

/// `Single/Maybe/Completable.value` and `Single.create(work:)`.
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
        let subscriptions = TraitsTestBox(0)
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

    // MARK: - create(work:) async

    func testSingleCreateFromAnAsyncClosure() async throws {
        let value = try await Single<Int>.create {
            try await Task.sleep(nanoseconds: 1_000_000)
            return 42
        }.value
        XCTAssertEqual(value, 42)
        do {
            _ = try await Single<Int>.create(detached: true) { throw testError }.value
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual("\(error)", "\(testError)")
        }
    }

    func testSingleCreateRunsTheWorkPerSubscription() async throws {
        let runs = TraitsTestBox(0)
        let single = Single<Int>.create(priority: .userInitiated) {
            runs.mutate { $0 += 1 }
            return runs.value
        }
        let first = try await single.value
        let second = try await single.value
        XCTAssertEqual([first, second], [1, 2])
    }

    func testDisposingCancelsTheWorksTask() async {
        let started = expectation(description: "started")
        let cancelled = expectation(description: "cancelled")
        let subscription = Single<Int>.create {
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
