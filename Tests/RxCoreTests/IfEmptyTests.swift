import RxCore
import RxTesting
import XCTest

final class IfEmptyTests: XCTestCase {
    func testDefaultWhenEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .completed(250)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.ifEmpty(default: 9) }
        XCTAssertEqual(res.events, [.next(250, 9), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testDefaultNotUsedWhenNotEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        XCTAssertEqual(scheduler.start { xs.ifEmpty(default: 9) }.events, [.next(210, 1), .completed(250)])
    }

    func testDefaultNotUsedOnError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.error(220, testError)] as [Recorded<Event<Int>>])
        XCTAssertEqual(scheduler.start { xs.ifEmpty(default: 9) }.events, [.error(220, testError)])
    }

    func testSwitchToSubscribesOnlyWhenEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(230)] as [Recorded<Event<Int>>])
        let ys = scheduler.createColdObservable([.next(10, 7), .next(20, 8), .completed(30)])
        let res = scheduler.start { xs.ifEmpty(switchTo: ys.asObservable()) }
        XCTAssertEqual(res.events, [.next(240, 7), .next(250, 8), .completed(260)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(230, 260)])
    }

    func testSwitchToNotUsedWhenNotEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(230)])
        let ys = scheduler.createColdObservable([.next(10, 7)])
        XCTAssertEqual(scheduler.start { xs.ifEmpty(switchTo: ys.asObservable()) }.events, [.next(210, 1), .completed(230)])
        XCTAssertEqual(ys.subscriptions, [])
    }

    func testSwitchToErrorAndDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(230)] as [Recorded<Event<Int>>])
        let ys = scheduler.createColdObservable([.next(10, 7), .error(20, testError)])
        XCTAssertEqual(scheduler.start { xs.ifEmpty(switchTo: ys.asObservable()) }.events, [.next(240, 7), .error(250, testError)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let xs2 = scheduler2.createHotObservable([.completed(230)] as [Recorded<Event<Int>>])
        let ys2 = scheduler2.createColdObservable([.next(10, 7), .next(50, 8)])
        let res2 = scheduler2.start(disposed: 260) { xs2.ifEmpty(switchTo: ys2.asObservable()) }
        XCTAssertEqual(res2.events, [.next(240, 7)])
        XCTAssertEqual(ys2.subscriptions, [Subscription(230, 260)])
    }
}
