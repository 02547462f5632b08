import RxCore
import RxTesting
import XCTest

final class JustTests: XCTestCase {
    func testJustEmitsAndCompletesAtSubscription() {
        let res = TestScheduler(initialClock: 0).start { Observable.just(42) }
        XCTAssertEqual(res.events, [.next(200, 42), .completed(200)])
    }

    func testJustOnSchedulerCompletesOneStepAfterTheElement() {
        // RxSwift schedules the element, then the completion as a second (recursive) step.
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.just(42, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(201, 42), .completed(202)])
    }

    func testJustOnSchedulerDisposedBetweenElementAndCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 202) { Observable.just(42, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(201, 42)])
    }

    func testJustOnSchedulerDisposedBeforeTheElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 200) { Observable.just(42, scheduler: scheduler) }
        XCTAssertEqual(res.events, [])
    }
}
