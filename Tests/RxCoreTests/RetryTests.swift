import RxCore
import RxTesting
import XCTest

/// `retry()` and `retry(_:)`.
final class RetryTests: XCTestCase {
    func testRetryCountIsTheTotalNumberOfSubscriptions() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .error(30, testError)])
        let res = scheduler.start { xs.retry(3) }
        XCTAssertEqual(res.events, [
            .next(210, 1), .next(220, 2),
            .next(240, 1), .next(250, 2),
            .next(270, 1), .next(280, 2),
            .error(290, testError),
        ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230), Subscription(230, 260), Subscription(260, 290)])
    }

    func testRetryStopsAtCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let res = scheduler.start { xs.retry(3) }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testRetryOneNeverResubscribes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, testError)])
        let res = scheduler.start { xs.retry(1) }
        XCTAssertEqual(res.events, [.next(210, 1), .error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testRetryZeroCompletesWithoutSubscribing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, testError)])
        let res = scheduler.start { xs.retry(0) }
        XCTAssertEqual(res.events, [.completed(200)])
        XCTAssertEqual(xs.subscriptions, [])
    }

    func testRetryForeverUntilDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, testError)])
        let res = scheduler.start(disposed: 255) { xs.retry() }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 1), .next(250, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(220, 240), Subscription(240, 255)])
    }

    func testRetryForeverSucceedsEventually() {
        var attempts = 0
        let source = Observable<Int>.deferred {
            attempts += 1
            return attempts < 4 ? .error(testError) : .just(attempts)
        }
        var events: [String] = []
        _ = source.retry().subscribe { events.append($0.debugDescription) }
        XCTAssertEqual(events, ["next(4)", "completed"])
        XCTAssertEqual(attempts, 4)
    }

    func testSynchronousFailuresDoNotRecurse() {
        // Each attempt fails while it is being subscribed; attempts must loop, not nest.
        var attempts = 0
        let source = Observable<Int>.create { observer in
            attempts += 1
            observer.onError(testError)
            return Disposables.create()
        }
        var error: String?
        _ = source.retry(100_000).subscribe(onError: { error = "\($0)" })
        XCTAssertEqual(attempts, 100_000)
        XCTAssertEqual(error, "TestError(1)")
    }

    func testEachFailedSubscriptionIsDisposedBeforeTheNext() {
        var log: [String] = []
        var attempts = 0
        let source = Observable<Int>.create { observer in
            attempts += 1
            let attempt = attempts
            log.append("subscribe \(attempt)")
            observer.onError(testError)
            return Disposables.create { log.append("dispose \(attempt)") }
        }
        _ = source.retry(2).subscribe(onError: { _ in log.append("error") })
        XCTAssertEqual(log, ["subscribe 1", "dispose 1", "subscribe 2", "dispose 2", "error"])
    }
}
