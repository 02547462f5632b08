import RxCore
import RxTesting
import XCTest

final class TakeTests: XCTestCase {
    func testTakeCompletesAndDisposesRightAfterTheNthElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(220, 2), .next(230, 3), .completed(250)])
        let res = scheduler.start { xs.take(2) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testTakeZeroNeverSubscribes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        let res = scheduler.start { xs.take(0) }
        XCTAssertEqual(res.events, [.completed(200)])
        XCTAssertEqual(xs.subscriptions, [])
    }

    func testTakeMoreThanAvailable() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
        let res = scheduler.start { xs.take(5) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testTakeForwardsError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        let res = scheduler.start { xs.take(3) }
        XCTAssertEqual(res.events, [.next(210, 1), .error(220, testError)])
    }

    func testTakeDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(250)])
        let res = scheduler.start(disposed: 220) { xs.take(2) }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testTakeDisposesTheSourceBeforeItsNextElement() {
        let source = ManualSource<Int>()
        let log = EventLog<Int>()
        _ = log.subscribe(source.observable.take(1))
        source.onNext(1)
        XCTAssertEqual(source.disposeCount, 1)
        source.onNext(2)
        XCTAssertEqual(log.entries, ["next(1)", "completed", "disposed"])
    }

    func testReentrantElementDuringTheNthIsDropped() {
        // The n-th element's handler makes the source send again before take completes:
        // nothing past n may reach the subscriber.
        let source = ManualSource<Int>()
        var seen: [Int] = []
        _ = source.observable.take(1).subscribe(onNext: { value in
            seen.append(value)
            if value == 1 { source.onNext(2) }
        })
        source.onNext(1)
        XCTAssertEqual(seen, [1])
    }
}
