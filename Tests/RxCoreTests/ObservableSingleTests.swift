import RxCore
import RxTesting
import XCTest

final class ObservableSingleTests: XCTestCase {
    func testOneElementIsForwardedAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .completed(250)])
        let res = scheduler.start { xs.single() }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testNoElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(250)] as [Recorded<Event<Int>>])
        XCTAssertEqual(scheduler.start { xs.single() }.events, [.error(250, RxError.noElements)])
    }

    func testMoreThanOneElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
        let res = scheduler.start { xs.single() }
        XCTAssertEqual(res.events, [.next(210, 1), .error(220, RxError.moreThanOneElement)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testPredicate() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(250)])
        XCTAssertEqual(scheduler.start { xs.single { $0 % 2 == 0 } }.events, [.next(220, 2), .completed(250)])
        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(250)])
        XCTAssertEqual(scheduler2.start { ys.single { $0 > 1 } }.events, [.next(220, 2), .error(230, RxError.moreThanOneElement)])
        let scheduler3 = TestScheduler(initialClock: 0)
        let zs = scheduler3.createHotObservable([.next(210, 1), .completed(250)])
        XCTAssertEqual(scheduler3.start { zs.single { $0 > 1 } }.events, [.error(250, RxError.noElements)])
    }

    func testThrowingPredicateAndSourceError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        XCTAssertEqual(scheduler.start { xs.single { _ in throw testError } }.events, [.error(210, testError)])
        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createHotObservable([.error(210, testError)] as [Recorded<Event<Int>>])
        XCTAssertEqual(scheduler2.start { ys.single() }.events, [.error(210, testError)])
    }

    func testDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        XCTAssertEqual(scheduler.start(disposed: 230) { xs.single() }.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }
}
