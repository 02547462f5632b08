import RxCore
import RxTesting
import XCTest

final class GenerateTests: XCTestCase {
    func testGenerateSendsStatesWhileTheConditionHolds() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Observable.generate(initialState: 0, condition: { $0 <= 3 }, scheduler: scheduler) { $0 + 1 }
        }
        XCTAssertEqual(res.events, [.next(201, 0), .next(202, 1), .next(203, 2), .next(204, 3), .completed(205)])
    }

    func testGenerateWithFalseInitialConditionOnlyCompletes() {
        var events: [String] = []
        _ = Observable.generate(initialState: 10, condition: { $0 < 3 }) { $0 + 1 }.subscribe { events.append($0.debugDescription) }
        XCTAssertEqual(events, ["completed"])
    }

    func testThrowingConditionErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Observable.generate(initialState: 0, condition: { _ in throw testError }, scheduler: scheduler) { $0 + 1 }
        }
        XCTAssertEqual(res.events, [.error(201, testError)])
    }

    func testThrowingIterateErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Observable.generate(initialState: 0, condition: { _ in true }, scheduler: scheduler) { state in
                if state == 1 { throw testError }
                return state + 1
            }
        }
        XCTAssertEqual(res.events, [.next(201, 0), .next(202, 1), .error(203, testError)])
    }

    func testGenerateDisposedMidway() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 203) {
            Observable.generate(initialState: 0, condition: { _ in true }, scheduler: scheduler) { $0 + 1 }
        }
        XCTAssertEqual(res.events, [.next(201, 0), .next(202, 1)])
    }
}
