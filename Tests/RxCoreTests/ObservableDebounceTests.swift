import RxCore
import RxTesting
import XCTest

final class ObservableDebounceTests: XCTestCase {
    func testEachElementRestartsTheTimer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .next(210, 2),
            .next(225, 3), // restarts: 2 is dropped
            .next(240, 4), // restarts: 3 is dropped
            .next(300, 5), // 4 went out at 260
            .next(400, 6), // 5 went out at 320
        ])
        let res = scheduler.start { xs.debounce(.seconds(20), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(260, 4), .next(320, 5), .next(420, 6)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testAllPass() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(200, 2), .next(250, 3), .next(300, 4),
            .next(350, 5), .next(400, 6), .next(450, 7), .completed(500),
        ])
        let res = scheduler.start { xs.debounce(.seconds(40), scheduler: scheduler) }
        XCTAssertEqual(res.events, [
            .next(290, 3), .next(340, 4), .next(390, 5), .next(440, 6), .next(490, 7), .completed(500),
        ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 500)])
    }

    func testAllPassErrorEnd() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(250, 3), .next(300, 4), .error(500, TimeOpsError()),
        ])
        let res = scheduler.start { xs.debounce(.seconds(40), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(290, 3), .next(340, 4), .error(500, TimeOpsError())])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 500)])
    }

    func testCompletedFlushesThePendingElementThenCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(250, 3), .next(300, 4), .next(350, 5),
            .next(400, 6), .next(450, 7), .completed(500),
        ])
        let res = scheduler.start { xs.debounce(.seconds(60), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(500, 7), .completed(500)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 500)])
    }

    func testErrorDropsThePendingElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(250, 3), .next(300, 4), .next(450, 7), .error(500, TimeOpsError()),
        ])
        let res = scheduler.start { xs.debounce(.seconds(60), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(360, 4), .error(500, TimeOpsError())])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 500)])
    }

    func testEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(300)])
        let res = scheduler.start { xs.debounce(.seconds(10), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1)])
        let res = scheduler.start { xs.debounce(.seconds(10), scheduler: scheduler) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testDisposeCancelsThePendingTimer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(280, 2)])
        let res = scheduler.start(disposed: 290) { xs.debounce(.seconds(20), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(230, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 290)])
    }

    func testMillisecondsWithAFinerResolution() {
        // 1 tick = 1 ms: `.milliseconds(20)` is 20 ticks.
        let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(400)])
        let res = scheduler.start { xs.debounce(.milliseconds(20), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(240, 2), .completed(400)])
    }
}
