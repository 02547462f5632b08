import RxCore
import RxTesting
import XCTest

final class TakeTimeTests: XCTestCase {
    func testCompletesWhenTheDurationElapses() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let res = scheduler.start { xs.take(for: .seconds(25), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(225)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
    }

    func testSourceEndsFirst() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        XCTAssertEqual(scheduler.start { xs.take(for: .seconds(50), scheduler: scheduler) }.events, [.next(210, 1), .completed(220)])
        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createHotObservable([.next(210, 1), .error(220, testError)])
        XCTAssertEqual(scheduler2.start { ys.take(for: .seconds(50), scheduler: scheduler2) }.events, [.next(210, 1), .error(220, testError)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 220)])
    }

    func testZeroDurationCompletesAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1)])
        // The timer runs in the scheduler's next step, as in RxSwift.
        XCTAssertEqual(scheduler.start { xs.take(for: .seconds(0), scheduler: scheduler) }.events, [.completed(201)])
    }

    func testDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2)])
        let res = scheduler.start(disposed: 220) { xs.take(for: .seconds(50), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }
}
