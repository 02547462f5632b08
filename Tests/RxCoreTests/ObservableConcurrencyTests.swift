import Foundation
import RxCore
import XCTest

/// A value guarded by a lock, for tests whose closures run on other threads.
final class TraitsTestBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) {
        stored = value
    }

    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    func mutate(_ body: (inout Value) -> Void) {
        lock.withLock { body(&stored) }
    }
}

/// `Observable.values` and `AsyncSequence.asObservable()`.
final class ObservableConcurrencyTests: XCTestCase {
    func testValuesYieldsEveryElementThenFinishes() async throws {
        var received: [Int] = []
        for try await value in Observable.of(1, 2, 3).values {
            received.append(value)
        }
        XCTAssertEqual(received, [1, 2, 3])
    }

    func testValuesThrowsTheError() async {
        var received: [Int] = []
        do {
            for try await value in Observable.of(1).concat(Observable<Int>.error(testError)).values {
                received.append(value)
            }
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual("\(error)", "\(testError)")
        }
        XCTAssertEqual(received, [1])
    }

    func testValuesFromAnotherThread() async throws {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        var received: [Int] = []
        for try await value in Observable.of(1, 2, 3).observe(on: scheduler).values {
            received.append(value)
        }
        XCTAssertEqual(received, [1, 2, 3])
    }

    func testBreakingOutOfTheLoopDisposesTheSubscription() async throws {
        let disposed = expectation(description: "disposed")
        let source = Observable<Int>.interval(.milliseconds(5), scheduler: ConcurrentDispatchQueueScheduler(qos: .default))
            .do(onDispose: { disposed.fulfill() })
        try await firstTwo(of: source)
        await fulfillment(of: [disposed], timeout: 5)
    }

    private func firstTwo(of source: Observable<Int>) async throws {
        var received: [Int] = []
        for try await value in source.values {
            received.append(value)
            if received.count == 2 { break }
        }
        XCTAssertEqual(received, [0, 1])
    }

    func testCancellingTheTaskDisposesTheSubscription() async {
        let subscribed = expectation(description: "subscribed")
        let disposed = expectation(description: "disposed")
        let task = Task {
            let source = Observable<Int>.never().do(onSubscribed: { subscribed.fulfill() }, onDispose: { disposed.fulfill() })
            var count = 0
            for try await _ in source.values {
                count += 1
            }
            return count
        }
        await fulfillment(of: [subscribed], timeout: 5)
        task.cancel()
        await fulfillment(of: [disposed], timeout: 5)
        // The disposal ends the stream with `CancellationError` (as in RxSwift).
        do {
            _ = try await task.value
            XCTFail("expected CancellationError")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
    }

    // MARK: - AsyncSequence.asObservable()

    func testAsyncSequenceAsObservableForwardsElementsThenCompletes() async throws {
        let stream = AsyncStream<Int> { continuation in
            for value in 1...3 { continuation.yield(value) }
            continuation.finish()
        }
        let values = try await stream.asObservable().toArray().value
        XCTAssertEqual(values, [1, 2, 3])
    }

    func testAsyncSequenceAsObservableDetached() async throws {
        let stream = AsyncStream<Int> { continuation in
            continuation.yield(7)
            continuation.finish()
        }
        let values = try await stream.asObservable(detached: true).toArray().value
        XCTAssertEqual(values, [7])
    }

    func testAsyncSequenceErrorFailsTheObservable() async {
        let stream = AsyncThrowingStream<Int, Error> { continuation in
            continuation.yield(1)
            continuation.finish(throwing: testError)
        }
        do {
            _ = try await stream.asObservable().toArray().value
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual("\(error)", "\(testError)")
        }
    }

    func testDisposingCancelsTheIteratingTask() async {
        let terminated = expectation(description: "stream terminated")
        let started = expectation(description: "first element")
        let stream = AsyncStream<Int> { continuation in
            continuation.yield(1)
            continuation.onTermination = { termination in
                if case .cancelled = termination { terminated.fulfill() }
            }
        }
        let received = TraitsTestBox<[Int]>([])
        let subscription = stream.asObservable().subscribe(onNext: { value in
            received.mutate { $0.append(value) }
            started.fulfill()
        })
        await fulfillment(of: [started], timeout: 5)
        subscription.dispose()
        await fulfillment(of: [terminated], timeout: 5)
        XCTAssertEqual(received.value, [1])
    }
}
