import RxCore
import RxTesting
import XCTest

/// RxSwift's ObservableThrottleTest cases, plus the RX-SEMANTICS line. The hot events at
/// 210, 250, 310, 350, 410, 450 with t = 200 give exactly 210 and 410 with
/// `latest: false` whatever the end time; with `latest: true` the element of 450 also
/// goes out at 610 (last emission 410 + 200), so 210 and 410 alone only when the
/// subscription ends before 610.
final class ObservableThrottleTests: XCTestCase {
    private func semanticsEvents(_ scheduler: TestScheduler, end: Recorded<Event<Int>>? = nil) -> TestableObservable<Int> {
        var events: [Recorded<Event<Int>>] = [
            .next(150, 1), .next(210, 2), .next(250, 3), .next(310, 4),
            .next(350, 5), .next(410, 6), .next(450, 7),
        ]
        if let end { events.append(end) }
        return scheduler.createHotObservable(events)
    }

    // MARK: RX-SEMANTICS

    func testSemanticsLineLatestFalseGives210And410() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = semanticsEvents(scheduler)
        let res = scheduler.start { xs.throttle(.seconds(200), latest: false, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 2), .next(410, 6)])
    }

    func testSemanticsLineLatestTrueGives210And410WhenDisposedBefore610() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = semanticsEvents(scheduler)
        let res = scheduler.start(disposed: 600) { xs.throttle(.seconds(200), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 2), .next(410, 6)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 600)])
    }

    // MARK: latest: true (the default)

    func testLatestCompleted() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = semanticsEvents(scheduler, end: .completed(500))
        let res = scheduler.start { xs.throttle(.seconds(200), scheduler: scheduler) }
        // Completion waits for the pending 7, sent at 410 + 200.
        XCTAssertEqual(res.events, [.next(210, 2), .next(410, 6), .next(610, 7), .completed(610)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 500)])
    }

    func testLatestCompletedAfterDueTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = semanticsEvents(scheduler, end: .completed(900))
        let res = scheduler.start { xs.throttle(.seconds(200), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 2), .next(410, 6), .next(610, 7), .completed(900)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 900)])
    }

    func testLatestNoEnd() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = semanticsEvents(scheduler)
        let res = scheduler.start { xs.throttle(.seconds(200), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 2), .next(410, 6), .next(610, 7)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testLatestErrorIsImmediate() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(250, 3), .next(310, 4),
            .next(350, 5), .error(410, TimeOpsError()), .next(450, 7), .completed(500),
        ])
        let res = scheduler.start { xs.throttle(.seconds(200), scheduler: scheduler) }
        // 5 was pending for 410 but the error, at 410 too, overtakes it.
        XCTAssertEqual(res.events, [.next(210, 2), .error(410, TimeOpsError())])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 410)])
    }

    func testLatestEmitsPendingElementAtLastEmissionPlusDueTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .next(300, 4)])
        let res = scheduler.start { xs.throttle(.seconds(50), scheduler: scheduler) }
        // 2 and 3 fall in 1's window; the latest (3) goes out at 210 + 50. 4 is 40 after
        // that emission, so it waits for 260 + 50.
        XCTAssertEqual(res.events, [.next(210, 1), .next(260, 3), .next(310, 4)])
    }

    func testLatestNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0)])
        let res = scheduler.start { xs.throttle(.seconds(200), scheduler: scheduler) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testLatestEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .completed(500)])
        let res = scheduler.start { xs.throttle(.seconds(200), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.completed(500)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 500)])
    }

    // MARK: latest: false

    func testNotLatestCompleted() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = semanticsEvents(scheduler, end: .completed(500))
        let res = scheduler.start { xs.throttle(.seconds(200), latest: false, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 2), .next(410, 6), .completed(500)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 500)])
    }

    func testNotLatestNoEnd() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = semanticsEvents(scheduler)
        let res = scheduler.start { xs.throttle(.seconds(200), latest: false, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 2), .next(410, 6)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testNotLatestError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(250, 3), .next(310, 4),
            .next(350, 5), .error(410, TimeOpsError()), .next(450, 7), .completed(500),
        ])
        let res = scheduler.start { xs.throttle(.seconds(200), latest: false, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 2), .error(410, TimeOpsError())])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 410)])
    }

    func testNotLatestNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0)])
        let res = scheduler.start { xs.throttle(.seconds(200), latest: false, scheduler: scheduler) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
    }

    func testNotLatestEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .completed(500)])
        let res = scheduler.start { xs.throttle(.seconds(200), latest: false, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.completed(500)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 500)])
    }
}
