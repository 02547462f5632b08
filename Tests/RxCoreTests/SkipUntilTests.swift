import RxCore
import RxTesting
import XCTest

/// `skip(until: other)`.
final class SkipUntilTests: XCTestCase {
    func testElementsAfterOthersFirstElementPass() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .next(230, 4), .next(240, 5), .completed(250)])
        let ys = scheduler.createHotObservable([.next(225, "go"), .next(235, "again")])
        let res = scheduler.start { xs.skip(until: ys) }
        XCTAssertEqual(res.events, [.next(230, 4), .next(240, 5), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 225)], "one element of other is enough")
    }

    func testOthersErrorIsForwarded() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(230, 4), .completed(250)])
        let ys = scheduler.createHotObservable([.error(225, testError)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.skip(until: ys) }
        XCTAssertEqual(res.events, [.error(225, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 225)])
    }

    func testOtherCompletingWithoutElementsKeepsSkipping() {
        // As in RxSwift, the source's completion is then not forwarded either.
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(230, 4), .completed(250)])
        let ys = scheduler.createHotObservable([.completed(225)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.skip(until: ys) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 225)])
    }

    func testSourceErrorIsForwardedEvenBeforeOtherFires() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(220, testError)])
        let ys = scheduler.createHotObservable([.next(300, 1)])
        let res = scheduler.start { xs.skip(until: ys) }
        XCTAssertEqual(res.events, [.error(220, testError)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 220)])
    }

    func testSourceIsSubscribedFirst() {
        var log: [String] = []
        let source = Observable<Int>.never().do(onSubscribe: { log.append("source") })
        let other = Observable<Int>.never().do(onSubscribe: { log.append("other") })
        _ = source.skip(until: other).subscribe().dispose()
        XCTAssertEqual(log, ["source", "other"])
    }
}
