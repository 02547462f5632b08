import RxCore
import RxTesting
import XCTest

final class GroupByTests: XCTestCase {
    private func tagged(_ groups: Observable<GroupedObservable<String, Int>>) -> Observable<String> {
        groups.flatMap { group in group.asObservable().map { "\(group.key):\($0)" }.startWith("new \(group.key)") }
    }

    func testOneGroupPerKey() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(250)])
        let res = scheduler.start { self.tagged(xs.groupBy { $0 % 2 == 0 ? "even" : "odd" }) }
        XCTAssertEqual(res.events, [
            .next(210, "new odd"), .next(210, "odd:1"),
            .next(220, "new even"), .next(220, "even:2"),
            .next(230, "odd:3"), .next(240, "even:4"),
            .completed(250),
        ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testEveryGroupCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(250)])
        let res = scheduler.start {
            xs.groupBy { $0 % 2 }.flatMap { group in group.asObservable().toArrayObservable().map { "\(group.key)=\($0)" } }
        }
        XCTAssertEqual(res.events, [.next(250, "1=[1, 3]"), .next(250, "0=[2]"), .completed(250)])
    }

    func testErrorReachesTheGroupsAndTheResult() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        let observer = scheduler.createObserver(Int.self)
        var groupSubscription: Disposable?
        let res = scheduler.start {
            xs.groupBy { $0 }.do(onNext: { groupSubscription = $0.subscribe(observer) }).map { $0.key }
        }
        XCTAssertEqual(res.events, [.next(210, 1), .error(220, testError)])
        XCTAssertEqual(observer.events, [.next(210, 1), .error(220, testError)])
        groupSubscription?.dispose()
    }

    func testThrowingKeySelectorFailsEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
        let res = scheduler.start {
            self.tagged(xs.groupBy { value -> String in
                if value == 2 { throw testError }
                return "k"
            })
        }
        XCTAssertEqual(res.events, [.next(210, "new k"), .next(210, "k:1"), .error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testAnObservedGroupKeepsTheSourceAlive() {
        // As RxSwift's AddRef: disposing the outer subscription keeps the source while a
        // group is subscribed.
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 1), .next(260, 1)])
        let observer = scheduler.createObserver(Int.self)
        var outer: Disposable?
        var inner: Disposable?
        scheduler.scheduleAt(200) {
            outer = xs.groupBy { $0 }.subscribe(onNext: { inner = $0.subscribe(observer) })
        }
        scheduler.scheduleAt(220) { outer?.dispose() }
        scheduler.scheduleAt(250) { inner?.dispose() }
        scheduler.start()
        XCTAssertEqual(observer.events, [.next(210, 1), .next(230, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testGroupedObservableInit() {
        let group = GroupedObservable(key: "k", source: Observable.of(1, 2))
        XCTAssertEqual(group.key, "k")
        XCTAssertEqual(try collect(group.asObservable()), [1, 2])
    }
}
