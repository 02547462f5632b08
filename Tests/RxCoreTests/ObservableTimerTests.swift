import RxCore
import RxTesting
import XCTest

final class ObservableTimerTests: XCTestCase {
    func testIntervalCountsEveryPeriod() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.interval(.seconds(100), scheduler: scheduler) }
        XCTAssertEqual(res.events, [
            .next(300, 0), .next(400, 1), .next(500, 2), .next(600, 3),
            .next(700, 4), .next(800, 5), .next(900, 6),
        ])
    }

    func testIntervalStopsOnDispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 450) { Observable<Int64>.interval(.seconds(100), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(300, 0), .next(400, 1)])
        // `start` runs until nothing is scheduled: a tick still pending after the dispose
        // would have moved the clock past 450.
        XCTAssertEqual(scheduler.clock, 450)
    }

    func testIntervalWrapsSmallIntegerTypes() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 201 + 257) { Observable<UInt8>.interval(.seconds(1), scheduler: scheduler) }
        let values = res.events.compactMap { $0.value.element }
        XCTAssertEqual(values.count, 257)
        XCTAssertEqual(Array(values.suffix(2)), [255, 0])
    }

    func testOneShotTimerEmitsZeroThenCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.timer(.seconds(10), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 0), .completed(210)])
    }

    func testOneShotTimerDisposedBeforeItFires() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 205) { Observable<Int>.timer(.seconds(10), scheduler: scheduler) }
        XCTAssertEqual(res.events, [])
    }

    func testZeroDueTimeRunsOneTickLaterOnTheTestScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.timer(.seconds(0), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(201, 0), .completed(201)])
    }

    func testPeriodicTimerStartsAfterDueTimeThenEveryPeriod() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 500) {
            Observable<Int>.timer(.seconds(50), period: .seconds(100), scheduler: scheduler)
        }
        XCTAssertEqual(res.events, [.next(250, 0), .next(350, 1), .next(450, 2)])
    }

    func testMillisecondsWithAFinerResolution() {
        let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
        let res = scheduler.start(disposed: 260) { Observable<Int>.interval(.milliseconds(20), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(220, 0), .next(240, 1)])
    }
}
