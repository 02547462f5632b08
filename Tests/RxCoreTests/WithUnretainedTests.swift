import RxCore
import RxTesting
import XCTest

final class WithUnretainedTests: XCTestCase {
    private final class Owner {
        let name: String
        init(name: String) { self.name = name }
    }

    func testPairsEachElementWithTheObject() {
        let scheduler = TestScheduler(initialClock: 0)
        let owner = Owner(name: "o")
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
        let res = scheduler.start { xs.withUnretained(owner).map { "\($0.name)\($1)" } }
        XCTAssertEqual(res.events, [.next(210, "o1"), .next(220, "o2"), .completed(250)])
        let res2 = TestScheduler(initialClock: 0).start {
            Observable.just(3).withUnretained(owner, resultSelector: { "\($0.name)-\($1)" })
        }
        XCTAssertEqual(res2.events, [.next(200, "o-3"), .completed(200)])
    }

    func testCompletesAtTheFirstElementAfterTheObjectIsGone() {
        let scheduler = TestScheduler(initialClock: 0)
        var owner: Owner? = Owner(name: "o")
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .next(240, 3)])
        scheduler.scheduleAt(220) { owner = nil }
        let res = scheduler.start { xs.withUnretained(owner!).map { $1 } }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }

    func testDoesNotRetainTheObject() {
        weak var weakOwner: Owner?
        let subject = PublishSubject<Int>()
        var subscription: Disposable?
        do {
            let owner = Owner(name: "o")
            weakOwner = owner
            subscription = subject.withUnretained(owner).subscribe()
        }
        XCTAssertNil(weakOwner)
        subscription?.dispose()
    }

    func testErrorAndDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let owner = Owner(name: "o")
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        XCTAssertEqual(scheduler.start { xs.withUnretained(owner).map { $1 } }.events, [.next(210, 1), .error(220, testError)])
        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createHotObservable([.next(210, 1), .next(230, 2)])
        XCTAssertEqual(scheduler2.start(disposed: 220) { ys.withUnretained(owner).map { $1 } }.events, [.next(210, 1)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 220)])
        withExtendedLifetime(owner) {}
    }
}
