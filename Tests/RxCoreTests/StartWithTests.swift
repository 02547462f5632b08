import RxCore
import RxTesting
import XCTest

final class StartWithTests: XCTestCase {
    func testStartWithSendsElementsAtSubscriptionThenTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(220, 2), .completed(250)])
        let res = scheduler.start { xs.startWith(0, -1) }
        XCTAssertEqual(res.events, [.next(200, 0), .next(200, -1), .next(220, 2), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testElementsAreSentSynchronouslyBeforeSubscribingToTheSource() {
        var log: [String] = []
        let source = Observable<Int>.create { observer in
            log.append("subscribed")
            observer.onNext(3)
            observer.onCompleted()
            return Disposables.create()
        }
        _ = source.startWith(1, 2).subscribe(onNext: { log.append("\($0)") }, onCompleted: { log.append("completed") })
        XCTAssertEqual(log, ["1", "2", "subscribed", "3", "completed"])
    }

    func testStartWithChainsOutermostFirst() {
        var seen: [Int] = []
        _ = Observable.of(4).startWith(3).startWith(1, 2).subscribe(onNext: { seen.append($0) })
        XCTAssertEqual(seen, [1, 2, 3, 4])
    }
}
