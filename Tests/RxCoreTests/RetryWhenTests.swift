import RxCore
import RxTesting
import XCTest

final class RetryWhenTests: XCTestCase {
    func testResubscribesWhenTheTriggerEmits() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, testError)])
        let res = scheduler.start {
            xs.retry(when: { (errors: Observable<Swift.Error>) in
                errors.enumerated().flatMap { attempt, error -> Observable<Int> in
                    attempt < 2 ? Observable.just(attempt) : Observable.error(error)
                }
            })
        }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 1), .next(250, 1), .error(260, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(220, 240), Subscription(240, 260)])
    }

    func testDelayedTrigger() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, testError)])
        let res = scheduler.start(disposed: 300) {
            xs.retry(when: { (errors: Observable<Swift.Error>) in
                errors.flatMap { _ in Observable<Int>.timer(.seconds(15), scheduler: scheduler) }
            })
        }
        XCTAssertEqual(res.events, [.next(210, 1), .next(245, 1), .next(280, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(235, 255), Subscription(270, 290)])
    }

    func testTriggerCompletionCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, testError)])
        let res = scheduler.start {
            xs.retry(when: { (errors: Observable<Swift.Error>) in errors.take(1) })
        }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 1), .completed(240)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(220, 240)])
    }

    func testSourceCompletionCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let res = scheduler.start { xs.retry(when: { (errors: Observable<Swift.Error>) in errors }) }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(220)])
    }

    func testTypedErrorsOnlyRetryTheirType() {
        enum Retryable: Error { case again }
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, Retryable.again)])
        let res = scheduler.start(disposed: 265) {
            xs.retry(when: { (errors: Observable<Retryable>) in errors })
        }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 1), .next(250, 1)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createColdObservable([.next(10, 1), .error(20, testError)])
        let res2 = scheduler2.start { ys.retry(when: { (errors: Observable<Retryable>) in errors }) }
        XCTAssertEqual(res2.events, [.next(210, 1), .error(220, testError)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 220)])
    }

    func testHandlerRunsOncePerSubscription() {
        var handlerCalls = 0
        let source = Observable<Int>.error(testError).retry(when: { (errors: Observable<Swift.Error>) -> Observable<Int> in
            handlerCalls += 1
            return errors.enumerated().map { $0.index }.take(while: { $0 < 3 })
        })
        var completed = 0
        _ = source.subscribe(onCompleted: { completed += 1 })
        _ = source.subscribe(onCompleted: { completed += 1 })
        XCTAssertEqual(handlerCalls, 2)
        XCTAssertEqual(completed, 2, "the fourth error completes the trigger, and so the result")
    }
}
