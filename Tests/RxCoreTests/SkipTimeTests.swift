import RxCore
import RxTesting
import XCTest

final class SkipTimeTests: XCTestCase {
    func testDropsTheElementsOfTheFirstDuration() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(240)])
        let res = scheduler.start { xs.skip(.seconds(15), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(220, 2), .next(230, 3), .completed(240)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
    }

    func testTerminationIsForwardedWhileSkipping() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        XCTAssertEqual(scheduler.start { xs.skip(.seconds(50), scheduler: scheduler) }.events, [.error(220, testError)])
        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createHotObservable([.next(210, 1), .completed(220)])
        XCTAssertEqual(scheduler2.start { ys.skip(.seconds(50), scheduler: scheduler2) }.events, [.completed(220)])
    }

    func testZeroDurationSkipsNothingLater() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        XCTAssertEqual(scheduler.start { xs.skip(.seconds(0), scheduler: scheduler) }.events, [.next(210, 1), .completed(220)])
    }

    func testDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .next(250, 3)])
        let res = scheduler.start(disposed: 240) { xs.skip(.seconds(20), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(230, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
    }
}
