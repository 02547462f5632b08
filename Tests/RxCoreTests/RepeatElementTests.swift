import RxCore
import RxTesting
import XCTest

final class RepeatElementTests: XCTestCase {
    func testRepeatElementRepeatsUntilDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 204) { Observable.repeatElement(7, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(201, 7), .next(202, 7), .next(203, 7)])
    }

    func testRepeatElementWithTakeOnTheTrampolineStops() {
        var events: [String] = []
        _ = Observable.repeatElement("x").take(3).subscribe { events.append($0.debugDescription) }
        XCTAssertEqual(events, ["next(x)", "next(x)", "next(x)", "completed"])
    }
}
