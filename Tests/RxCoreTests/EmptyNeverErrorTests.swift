import RxCore
import RxTesting
import XCTest

/// `empty()`, `never()` and `error(_:)`.
final class EmptyNeverErrorTests: XCTestCase {
    func testEmptyCompletesAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.empty() }
        XCTAssertEqual(res.events, [.completed(200)])
    }

    func testNeverSendsNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.never() }
        XCTAssertEqual(res.events, [])
    }

    func testNeverIsDisposable() {
        var disposed = false
        let subscription = Observable<Int>.never().subscribe(onDisposed: { disposed = true })
        XCTAssertFalse(disposed)
        subscription.dispose()
        XCTAssertTrue(disposed)
    }

    func testErrorFailsAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.error(testError) }
        XCTAssertEqual(res.events, [.error(200, testError)])
    }
}
