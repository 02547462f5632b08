import RxCore
import RxTesting
import XCTest

final class OptionalTests: XCTestCase {
    func testFromOptionalWithValueSendsItThenCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.from(optional: 5) }
        XCTAssertEqual(res.events, [.next(200, 5), .completed(200)])
    }

    func testFromOptionalNilOnlyCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.from(optional: nil) }
        XCTAssertEqual(res.events, [.completed(200)])
    }

    func testFromOptionalOnASchedulerUsesTwoSteps() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.from(optional: 5, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(201, 5), .completed(202)])
        let none = TestScheduler(initialClock: 0)
        let nothing = none.start { Observable<Int>.from(optional: nil, scheduler: none) }
        XCTAssertEqual(nothing.events, [.completed(201)])
    }

    func testFromOptionalOnASchedulerDisposedBetweenTheSteps() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 202) { Observable.from(optional: 5, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(201, 5)])
    }
}
