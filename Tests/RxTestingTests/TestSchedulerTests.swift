import RxCore
import RxTesting
import XCTest

final class TestSchedulerTests: XCTestCase {
    struct TestError: Error {}

    func testHotObservableEmitsAtAbsoluteTimesAndRecordsSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .next(210, 2),
            .next(240, 3),
            .completed(300),
        ])
        let res = scheduler.start { xs.map { $0 * 10 } }
        XCTAssertEqual(res.events, [.next(210, 20), .next(240, 30), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testColdObservableEmitsRelativeToSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, "a"), .next(20, "b"), .completed(30)])
        let res = scheduler.start { xs }
        XCTAssertEqual(res.events, [.next(210, "a"), .next(220, "b"), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testDisposeAtGivenTimeCutsTheSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .completed(300)])
        let res = scheduler.start(disposed: 250) { xs }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testExplicitTimes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(20, 1), .next(60, 2), .error(70, TestError())])
        let res = scheduler.start(created: 10, subscribed: 50, disposed: 100) { xs }
        XCTAssertEqual(res.events, [.next(60, 2), .error(70, TestError())])
        XCTAssertEqual(xs.subscriptions, [Subscription(50, 70)])
    }

    func testErrorsCompareByTypeAndDescription() {
        struct Other: Error {}
        XCTAssertEqual(Event<Int>.error(TestError()), Event<Int>.error(TestError()))
        XCTAssertNotEqual(Event<Int>.error(TestError()), Event<Int>.error(Other()))
        XCTAssertNotEqual(Event<Int>.next(1), Event<Int>.completed)
        XCTAssertNotEqual(Recorded.next(1, 1), Recorded.next(2, 1))
    }

    func testScheduleAtRunsInTimeThenSchedulingOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        var log: [String] = []
        scheduler.scheduleAt(30) { log.append("30a") }
        scheduler.scheduleAt(10) { log.append("10") }
        scheduler.scheduleAt(30) { log.append("30b") }
        scheduler.scheduleAt(20) {
            log.append("20")
            scheduler.scheduleAt(25) { log.append("25 (scheduled at 20)") }
        }
        scheduler.start()
        XCTAssertEqual(log, ["10", "20", "25 (scheduled at 20)", "30a", "30b"])
        XCTAssertEqual(scheduler.clock, 30)
    }

    func testRelativeSchedulingUsesResolutionAndProcessingDelay() {
        let scheduler = TestScheduler(initialClock: 0)
        var times: [Int] = []
        scheduler.scheduleAt(100) {
            _ = scheduler.scheduleRelative((), dueTime: .seconds(5)) { _ in
                times.append(scheduler.clock)
                return Disposables.create()
            }
            // "now" runs one tick later (RxTest's simulateProcessingDelay).
            _ = scheduler.schedule(()) { _ in
                times.append(scheduler.clock)
                return Disposables.create()
            }
        }
        scheduler.start()
        XCTAssertEqual(times, [101, 105])

        let fine = TestScheduler(initialClock: 0, resolution: 0.001, simulateProcessingDelay: false)
        var fineTimes: [Int] = []
        _ = fine.scheduleRelative((), dueTime: .milliseconds(250)) { _ in
            fineTimes.append(fine.clock)
            return Disposables.create()
        }
        _ = fine.schedule(()) { _ in
            fineTimes.append(fine.clock)
            return Disposables.create()
        }
        fine.start()
        XCTAssertEqual(fineTimes, [0, 250])
    }

    func testDisposedWorkDoesNotRun() {
        let scheduler = TestScheduler(initialClock: 0)
        var ran = false
        let disposable = scheduler.scheduleRelative((), dueTime: .seconds(10)) { _ in
            ran = true
            return Disposables.create()
        }
        disposable.dispose()
        scheduler.start()
        XCTAssertFalse(ran)
    }

    func testAdvanceToRunsOnlyDueWorkAndSetsClock() {
        let scheduler = TestScheduler(initialClock: 0)
        let observer = scheduler.createObserver(Int.self)
        let xs = scheduler.createHotObservable([.next(10, 1), .next(20, 2), .next(30, 3)])
        _ = xs.subscribe(observer)
        scheduler.advanceTo(20)
        XCTAssertEqual(observer.events, [.next(10, 1), .next(20, 2)])
        XCTAssertEqual(scheduler.clock, 20)
        scheduler.advanceTo(25)
        XCTAssertEqual(scheduler.clock, 25)
        scheduler.start()
        XCTAssertEqual(observer.events, [.next(10, 1), .next(20, 2), .next(30, 3)])
    }

    func testRecordSubscribesNowAndRecordsEvents() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(5, 1), .completed(6)])
        let bag = DisposeBag()
        let observer = scheduler.record(xs, disposeBag: bag)
        scheduler.start()
        XCTAssertEqual(observer.events, Recorded.events(.next(5, 1), .completed(6)))
        XCTAssertRecordedElements(Array(observer.events.prefix(1)), [1])
    }

    func testSleepMovesClockWithoutRunningWork() {
        let scheduler = TestScheduler(initialClock: 0)
        var ran = false
        scheduler.scheduleAt(5) { ran = true }
        scheduler.sleep(10)
        XCTAssertEqual(scheduler.clock, 10)
        XCTAssertFalse(ran)
    }

}

final class TestSchedulerStartTests: XCTestCase {
    func testDefaultsAreRxTestsTimes() {
        XCTAssertEqual(TestScheduler.Defaults.created, 100)
        XCTAssertEqual(TestScheduler.Defaults.subscribed, 200)
        XCTAssertEqual(TestScheduler.Defaults.disposed, 1000)
    }

    func testStartWithOnlyTheFactoryUsesAllDefaults() {
        let scheduler = TestScheduler(initialClock: 0)
        var createdAt: TestTime?
        let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(1000, 2), .next(1001, 3)])
        let res = scheduler.start { () -> Observable<Int> in
            createdAt = scheduler.clock
            return xs.asObservable()
        }
        XCTAssertEqual(createdAt, 100)
        // The hot observable scheduled its event at 1000 before `start` scheduled the
        // disposal at 1000, so that event still arrives; the one at 1001 does not.
        XCTAssertEqual(res.events, [.next(210, 1), .next(1000, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(xs.recordedEvents.count, 4)
    }

    func testStartDisposedUsesDefaultCreationAndSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(60, 2)])
        let res = scheduler.start(disposed: 250) { xs }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testColdObservableRecordsEachSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(100) { _ = xs.subscribe(first) }
        var subscription: Disposable?
        scheduler.scheduleAt(300) { subscription = xs.subscribe(second) }
        scheduler.scheduleAt(315) { subscription?.dispose() }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(110, 1), .completed(120)])
        XCTAssertEqual(second.events, [.next(310, 1)])
        // The first subscriber is never disposed (RxTest records only explicit disposal).
        XCTAssertEqual(xs.subscriptions, [Subscription(100), Subscription(300, 315)])
    }

    func testHotObservableSendsToEverySubscriberInOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(110, 1), .next(210, 2), .completed(310)])
        let a = scheduler.createObserver(Int.self)
        let b = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(100) { _ = xs.subscribe(a) }
        scheduler.scheduleAt(200) { _ = xs.subscribe(b) }
        scheduler.start()
        XCTAssertEqual(a.events, [.next(110, 1), .next(210, 2), .completed(310)])
        XCTAssertEqual(b.events, [.next(210, 2), .completed(310)])
        XCTAssertEqual(xs.subscriptions, [Subscription(100), Subscription(200)])
    }
}
