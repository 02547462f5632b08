import RxCore
import RxTesting
import XCTest

final class DeferredTests: XCTestCase {
    func testFactoryRunsAtSubscriptionTimeAndItsSequenceIsForwarded() {
        let scheduler = TestScheduler(initialClock: 0)
        var invoked = 0
        var xs: TestableObservable<Int>!
        let res = scheduler.start {
            Observable<Int>.deferred {
                invoked += 1
                xs = scheduler.createColdObservable([.next(100, scheduler.clock), .next(200, invoked), .completed(300)])
                return xs.asObservable()
            }
        }
        XCTAssertEqual(invoked, 1)
        XCTAssertEqual(res.events, [.next(300, 200), .next(400, 1), .completed(500)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 500)])
    }

    func testFactoryRunsOncePerSubscription() {
        var invoked = 0
        let source = Observable<Int>.deferred {
            invoked += 1
            return Observable.just(invoked)
        }
        var seen: [Int] = []
        _ = source.subscribe(onNext: { seen.append($0) })
        _ = source.subscribe(onNext: { seen.append($0) })
        XCTAssertEqual(seen, [1, 2])
    }

    func testThrowingFactoryErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Observable<Int>.deferred { throw testError }
        }
        XCTAssertEqual(res.events, [.error(200, testError)])
    }

    func testDisposeReachesTheDeferredSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(300, 2)])
        let res = scheduler.start(disposed: 250) { Observable<Int>.deferred { xs.asObservable() } }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }
}
