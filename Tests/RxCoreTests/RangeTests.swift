import RxCore
import RxTesting
import XCTest

final class RangeTests: XCTestCase {
    func testRangeSendsCountIntegersFromStart() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.range(start: -2, count: 4, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(201, -2), .next(202, -1), .next(203, 0), .next(204, 1), .completed(205)])
    }

    func testRangeOfZeroOnlyCompletes() {
        var events: [String] = []
        _ = Observable.range(start: 5, count: 0).subscribe { events.append($0.debugDescription) }
        XCTAssertEqual(events, ["completed"])
    }

    func testRangeUpToTheTypeMaximumDoesNotOverflow() {
        var seen: [UInt8] = []
        _ = Observable<UInt8>.range(start: 250, count: 6).subscribe(onNext: { seen.append($0) })
        XCTAssertEqual(seen, [250, 251, 252, 253, 254, 255])
    }

    func testRangeDisposedMidway() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 203) { Observable.range(start: 0, count: 100, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(201, 0), .next(202, 1)])
    }

    func testLargeRangeOnTheTrampoline() {
        var sum = 0
        _ = Observable.range(start: 1, count: 100_000).subscribe(onNext: { sum += $0 })
        XCTAssertEqual(sum, 5_000_050_000)
    }
}
