import RxCore
import RxTesting
import XCTest

final class WindowTests: XCTestCase {
    /// Each element tagged with the index of its window; window openings as "open n".
    private func tagged(_ windows: Observable<Observable<Int>>) -> Observable<String> {
        windows.enumerated().flatMap { index, window in
            window.map { "\(index):\($0)" }.startWith("open \(index)")
        }
    }

    func testClosesByCountOrTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(205, 1), .next(210, 2), .next(240, 3), .next(280, 4), .next(320, 5), .next(350, 6),
            .completed(400),
        ])
        let res = scheduler.start { self.tagged(xs.window(timeSpan: .seconds(70), count: 3, scheduler: scheduler)) }
        XCTAssertEqual(res.events, [
            .next(200, "open 0"), .next(205, "0:1"), .next(210, "0:2"), .next(240, "0:3"),
            .next(240, "open 1"), .next(280, "1:4"),
            .next(310, "open 2"), .next(320, "2:5"), .next(350, "2:6"),
            .next(380, "open 3"),
            .completed(400),
        ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 400)])
    }

    func testErrorReachesTheWindowAndTheResult() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        let res = scheduler.start { self.tagged(xs.window(timeSpan: .seconds(100), count: 5, scheduler: scheduler)) }
        XCTAssertEqual(res.events, [.next(200, "open 0"), .next(210, "0:1"), .error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testWindowsCompleteInTurn() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(240)])
        let res = scheduler.start {
            xs.window(timeSpan: .seconds(1000), count: 2, scheduler: scheduler)
                .flatMap { $0.toArrayObservable() }
        }
        XCTAssertEqual(res.events, [.next(220, [1, 2]), .next(240, [3]), .completed(240)])
    }

    func testDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2)])
        let res = scheduler.start(disposed: 250) { self.tagged(xs.window(timeSpan: .seconds(20), count: 5, scheduler: scheduler)) }
        XCTAssertEqual(res.events, [.next(200, "open 0"), .next(210, "0:1"), .next(220, "open 1"), .next(240, "open 2")])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }
}

extension ObservableType {
    /// All elements as one array at completion (an Observable, whatever `toArray` returns).
    func toArrayObservable() -> Observable<[Element]> {
        reduce([Element]()) { $0 + [$1] }
    }
}
