import RxCore
import RxTesting
import XCTest

final class ObservableBufferTests: XCTestCase {
    func testSendsWhenFullOrWhenTheTimeSpanEnds() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(230, 3), .next(260, 4),
            .next(270, 5), .next(290, 6), .next(320, 7), .completed(390),
        ])
        let res = scheduler.start { xs.buffer(timeSpan: .seconds(50), count: 3, scheduler: scheduler) }
        // [2,3] at 250 (time), [4,5,6] at 290 (count, restarting the clock), [7] at 340,
        // [] at 390 when the source completes.
        XCTAssertEqual(res.events.map(\.time), [250, 290, 340, 390, 390])
        XCTAssertEqual(res.events.compactMap { $0.value.element }, [[2, 3], [4, 5, 6], [7], []])
        XCTAssertTrue(res.events.last!.value.isCompleted)
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 390)])
    }

    func testEmitsEmptyBuffersWhileNothingArrives() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createHotObservable([])
        let res = scheduler.start(disposed: 370) { xs.buffer(timeSpan: .seconds(50), count: 3, scheduler: scheduler) }
        XCTAssertEqual(res.events.map(\.time), [250, 300, 350])
        XCTAssertEqual(res.events.compactMap { $0.value.element }, [[], [], []])
    }

    func testErrorDropsTheCurrentBuffer() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .error(230, TimeOpsError())])
        let res = scheduler.start { xs.buffer(timeSpan: .seconds(50), count: 3, scheduler: scheduler) }
        XCTAssertEqual(res.events.count, 1)
        XCTAssertEqual(res.events[0].time, 230)
        XCTAssertNotNil(res.events[0].value.error)
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }
}
