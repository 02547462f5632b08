import RxCore
import RxTesting
import XCTest

/// `catch(_:)` and `catchAndReturn(_:)`.
final class CatchTests: XCTestCase {
    func testCatchContinuesWithTheHandlersSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .error(230, testError), .next(240, 99)])
        let ys = scheduler.createHotObservable([.next(220, 10), .next(240, 3), .completed(250)])
        var caught: [String] = []
        let res = scheduler.start {
            xs.catch { error in
                caught.append("\(error)")
                return ys.asObservable()
            }
        }
        XCTAssertEqual(res.events, [.next(210, 2), .next(240, 3), .completed(250)])
        XCTAssertEqual(caught, ["TestError(1)"])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(230, 250)])
    }

    func testCompletionIsNotCaught() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .completed(230)])
        var handlerCalls = 0
        let res = scheduler.start { xs.catch { _ in handlerCalls += 1; return .just(0) } }
        XCTAssertEqual(res.events, [.next(210, 2), .completed(230)])
        XCTAssertEqual(handlerCalls, 0)
    }

    func testErrorOfTheHandlersSequenceIsForwarded() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(230, testError)])
        let ys = scheduler.createHotObservable([.next(240, 3), .error(250, testError2)])
        var handlerCalls = 0
        let res = scheduler.start { xs.catch { _ in handlerCalls += 1; return ys.asObservable() } }
        XCTAssertEqual(res.events, [.next(210, 2), .next(240, 3), .error(250, testError2)])
        XCTAssertEqual(handlerCalls, 1, "only the source's error is caught")
        XCTAssertEqual(ys.subscriptions, [Subscription(230, 250)])
    }

    func testThrowingHandlerErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(230, testError)])
        let res = scheduler.start { xs.catch { _ in throw testError2 } }
        XCTAssertEqual(res.events, [.next(210, 2), .error(230, testError2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testDisposeAfterSwitchingDisposesTheHandlersSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.error(210, testError)] as [Recorded<Event<Int>>])
        let ys = scheduler.createHotObservable([.next(220, 1), .next(300, 2)])
        let res = scheduler.start(disposed: 250) { xs.catch { _ in ys.asObservable() } }
        XCTAssertEqual(res.events, [.next(220, 1)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 250)])
    }

    func testSynchronousErrorSwitchesToTheHandlersSequence() {
        var events: [String] = []
        _ = Observable<Int>.error(testError).catch { _ in Observable.of(1, 2) }.subscribe { events.append($0.debugDescription) }
        XCTAssertEqual(events, ["next(1)", "next(2)", "completed"])
    }

    func testCatchAndReturnSendsTheElementThenCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(230, testError), .next(240, 5)])
        let res = scheduler.start { xs.catchAndReturn(-1) }
        XCTAssertEqual(res.events, [.next(210, 2), .next(230, -1), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }
}
