import RxCore
import RxTesting
import XCTest

final class AmbTests: XCTestCase {
    func testFirstToEmitWinsAndTheOtherIsDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(220, 1), .next(240, 2), .completed(250)])
        let ys = scheduler.createHotObservable([.next(210, 10), .next(230, 20), .completed(300)])
        let res = scheduler.start { xs.amb(ys) }
        XCTAssertEqual(res.events, [.next(210, 10), .next(230, 20), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 300)])
    }

    func testATerminalEventAlsoWins() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.error(210, testError)] as [Recorded<Event<Int>>])
        let ys = scheduler.createHotObservable([.next(220, 10)])
        let res = scheduler.start { xs.amb(ys) }
        XCTAssertEqual(res.events, [.error(210, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 210)])
    }

    func testCollection() {
        let scheduler = TestScheduler(initialClock: 0)
        let x1 = scheduler.createHotObservable([.next(230, 1)])
        let x2 = scheduler.createHotObservable([.next(215, 2), .completed(260)])
        let x3 = scheduler.createHotObservable([.next(220, 3)])
        let res = scheduler.start { Observable.amb([x1, x2, x3].map { $0.asObservable() }) }
        XCTAssertEqual(res.events, [.next(215, 2), .completed(260)])
        XCTAssertEqual(x1.subscriptions, [Subscription(200, 215)])
        XCTAssertEqual(x2.subscriptions, [Subscription(200, 260)])
        XCTAssertEqual(x3.subscriptions, [Subscription(200, 215)])
    }

    func testEmptyCollectionNeverEmits() {
        let scheduler = TestScheduler(initialClock: 0)
        XCTAssertEqual(scheduler.start { Observable<Int>.amb([]) }.events, [])
    }

    func testDisposedBeforeAnyEvent() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(260, 1)])
        let ys = scheduler.createHotObservable([.next(270, 2)])
        let res = scheduler.start(disposed: 250) { xs.amb(ys) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 250)])
    }

    func testSynchronousLeftWinsBeforeRightIsSubscribed() {
        var rightSubscribed = 0
        let right = Observable<Int>.create { _ in
            rightSubscribed += 1
            return Disposables.create()
        }
        XCTAssertEqual(try collect(Observable.just(1).amb(right)), [1])
        // RxSwift subscribes both; the right one is disposed at once.
        XCTAssertEqual(rightSubscribed, 1)
    }
}
