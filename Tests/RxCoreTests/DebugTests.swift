import RxCore
import RxTesting
import XCTest

final class DebugTests: XCTestCase {
    func testEventsPassThroughUnchanged() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
        let res = scheduler.start { xs.debug("test", trimOutput: true) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testErrorAndDisposalPassThrough() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        XCTAssertEqual(scheduler.start { xs.debug() }.events, [.next(210, 1), .error(220, testError)])
        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createHotObservable([.next(210, 1), .next(230, 2)])
        XCTAssertEqual(scheduler2.start(disposed: 220) { ys.debug() }.events, [.next(210, 1)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 220)])
    }
}
