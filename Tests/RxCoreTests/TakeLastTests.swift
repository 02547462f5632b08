import RxCore
import RxTesting
import XCTest

final class TakeLastTests: XCTestCase {
    func testSendsTheLastElementsAtCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(250)])
        let res = scheduler.start { xs.takeLast(2) }
        XCTAssertEqual(res.events, [.next(250, 3), .next(250, 4), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testFewerThanCountAndZero() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        XCTAssertEqual(scheduler.start { xs.takeLast(5) }.events, [.next(250, 1), .completed(250)])
        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createHotObservable([.next(210, 1), .completed(250)])
        XCTAssertEqual(scheduler2.start { ys.takeLast(0) }.events, [.completed(250)])
    }

    func testErrorDropsTheBuffer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        let res = scheduler.start { xs.takeLast(2) }
        XCTAssertEqual(res.events, [.error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testDisposedBeforeCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        let res = scheduler.start(disposed: 230) { xs.takeLast(2) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }
}
