import RxCore
import RxTesting
import XCTest

final class ObservableDelayTests: XCTestCase {
    private func source(_ scheduler: TestScheduler, end: Recorded<Event<Int>>) -> TestableObservable<Int> {
        scheduler.createHotObservable([.next(150, 1), .next(250, 2), .next(350, 3), .next(450, 4), end])
    }

    func testShiftsElementsAndCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, end: .completed(550))
        let res = scheduler.start { xs.delay(.seconds(100), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(350, 2), .next(450, 3), .next(550, 4), .completed(650)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 550)])
    }

    func testShorterThanTheGaps() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, end: .completed(550))
        let res = scheduler.start { xs.delay(.seconds(50), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(300, 2), .next(400, 3), .next(500, 4), .completed(600)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 550)])
    }

    func testLongerThanTheGaps() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, end: .completed(550))
        let res = scheduler.start { xs.delay(.seconds(150), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(400, 2), .next(500, 3), .next(600, 4), .completed(700)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 550)])
    }

    func testErrorIsNotDelayed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .error(250, TimeOpsError())])
        let res = scheduler.start { xs.delay(.seconds(150), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.error(250, TimeOpsError())])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testCompletionAloneIsDelayed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .completed(250)])
        let res = scheduler.start { xs.delay(.seconds(150), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.completed(400)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testErrorAfterEverythingWasDelivered() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, end: .error(550, TimeOpsError()))
        let res = scheduler.start { xs.delay(.seconds(50), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(300, 2), .next(400, 3), .next(500, 4), .error(550, TimeOpsError())])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 550)])
    }

    func testErrorOvertakesTheQueuedElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, end: .error(550, TimeOpsError()))
        let res = scheduler.start { xs.delay(.seconds(150), scheduler: scheduler) }
        // 4 (due at 600) is dropped.
        XCTAssertEqual(res.events, [.next(400, 2), .next(500, 3), .error(550, TimeOpsError())])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 550)])
    }

    func testEveryEventShiftedByTheSameAmount() {
        let scheduler = TestScheduler(initialClock: 0)
        let messages: [Recorded<Event<Int>>] = [
            .next(150, 1), .next(250, 2), .next(350, 3), .next(450, 4), .completed(550),
        ]
        let xs = scheduler.createHotObservable(messages)
        let res = scheduler.start { xs.delay(.seconds(42), scheduler: scheduler) }
        let expected = messages
            .map { Recorded(time: $0.time + 42, value: $0.value) }
            .filter { $0.time > 242 }
        XCTAssertEqual(res.events, expected)
    }

    func testDisposeDropsWhatIsStillQueued() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, end: .completed(550))
        let res = scheduler.start(disposed: 400) { xs.delay(.seconds(100), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(350, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 400)])
    }

    func testColdSourceThatCompletesSynchronouslyStillDelivers() {
        // The scheduled drain keeps the subscription alive once the source is done.
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.just(7).delay(.seconds(30), scheduler: scheduler) }
        // One item per scheduled run, as in RxSwift: the completion, due at the same time,
        // is rescheduled with no delay, which the test scheduler runs one tick later.
        XCTAssertEqual(res.events, [.next(230, 7), .completed(231)])
    }
}
