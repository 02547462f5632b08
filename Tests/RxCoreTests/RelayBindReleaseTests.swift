import RxCore
import RxTesting
import XCTest

/// A binding that is never disposed must not keep its source alive (RxSwift's
/// `InfallibleTest.testAsInfallible_*Relay` count leaks after such a test).
final class RelayBindReleaseTests: XCTestCase {
    func testUndisposedBindingToARelayReleasesEverything() {
        weak var weakScheduler: TestScheduler?
        weak var weakObserver: TestableObserver<Int>?
        weak var weakRelay: BehaviorRelay<Int>?
        do {
            let scheduler = TestScheduler(initialClock: 0)
            let relay = BehaviorRelay(value: 0)
            let ys = scheduler.createHotObservable([.next(500, 25), .next(600, 33)])
            let observer = scheduler.createObserver(Int.self)
            _ = relay.asInfallible().bind(to: observer)
            _ = ys.bind(to: relay)
            scheduler.start()
            XCTAssertEqual(observer.events, [.next(0, 0), .next(500, 25), .next(600, 33)])
            weakScheduler = scheduler
            weakObserver = observer
            weakRelay = relay
        }
        XCTAssertNil(weakRelay)
        XCTAssertNil(weakObserver)
        XCTAssertNil(weakScheduler)
    }

    func testDisposingStillRecordsTheUnsubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = scheduler.createHotObservable([.next(210, 1), .next(230, 2)])
        let res = scheduler.start(disposed: 220) { ys.asObservable() }
        XCTAssertEqual(res.events, [.next(210, 1)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 220)])
    }

    #if TRACE_RESOURCES
    func testUndisposedBindingToARelayLeavesNoLiveResources() {
        let before = Resources.total
        do {
            let scheduler = TestScheduler(initialClock: 0)
            let relay = PublishRelay<Int>()
            let ys = scheduler.createHotObservable([.next(500, 25)])
            let observer = scheduler.createObserver(Int.self)
            _ = relay.asInfallible().bind(to: observer)
            _ = ys.bind(to: relay)
            scheduler.start()
            XCTAssertEqual(observer.events, [.next(500, 25)])
        }
        XCTAssertEqual(Resources.total, before)
    }
    #endif
}
