import RxCore
import RxTesting
import XCTest

final class DistinctUntilChangedTests: XCTestCase {
    func testDropsConsecutiveDuplicates() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(215, 2), .next(220, 3), .next(225, 3), .next(230, 2), .completed(250),
        ])
        let res = scheduler.start { xs.distinctUntilChanged() }
        XCTAssertEqual(res.events, [.next(210, 2), .next(220, 3), .next(230, 2), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testFirstElementAlwaysPasses() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(250)])
        let res = scheduler.start { xs.distinctUntilChanged { _, _ in true } }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(250)])
    }

    func testComparesWithTheLastEmittedElementNotTheLastSeen() {
        // "Equal" means within 1. 2 is dropped (close to 1); 3 is compared with 1, the
        // last element sent, so it passes; 4 is close to 3 and dropped.
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(250)])
        let res = scheduler.start { xs.distinctUntilChanged { abs($0 - $1) <= 1 } }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 3), .completed(250)])
    }

    func testKeySelector() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, "a1"), .next(220, "a2"), .next(230, "b1"), .next(240, "a3"), .completed(250)])
        let res = scheduler.start { xs.distinctUntilChanged { $0.first! } }
        XCTAssertEqual(res.events, [.next(210, "a1"), .next(230, "b1"), .next(240, "a3"), .completed(250)])
    }

    func testKeySelectorWithComparerComparesLastEmittedKey() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, "a"), .next(220, "bb"), .next(230, "ccc"), .next(240, "dddd"), .completed(250)])
        let res = scheduler.start { xs.distinctUntilChanged({ $0.count }, comparer: { abs($0 - $1) <= 1 }) }
        XCTAssertEqual(res.events, [.next(210, "a"), .next(230, "ccc"), .completed(250)])
    }

    func testKeyPath() {
        struct Item: Equatable { let id: Int; let name: String }
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, Item(id: 1, name: "a")), .next(220, Item(id: 1, name: "b")), .next(230, Item(id: 2, name: "b")), .completed(250),
        ])
        let res = scheduler.start { xs.distinctUntilChanged(at: \.id) }
        XCTAssertEqual(res.events, [.next(210, Item(id: 1, name: "a")), .next(230, Item(id: 2, name: "b")), .completed(250)])
    }

    func testThrowingKeySelectorErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
        let res = scheduler.start {
            xs.distinctUntilChanged { value -> Int in
                if value == 2 { throw testError }
                return value
            }
        }
        XCTAssertEqual(res.events, [.next(210, 1), .error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testThrowingComparerErrors() {
        // The comparer is not called for the first element, only from the second on.
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
        let res = scheduler.start { xs.distinctUntilChanged { (_: Int, _: Int) throws -> Bool in throw testError } }
        XCTAssertEqual(res.events, [.next(210, 1), .error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testEachSubscriptionStartsWithoutALastKey() {
        let source = Observable.of(1, 1, 2).distinctUntilChanged()
        var first: [Int] = []
        var second: [Int] = []
        _ = source.subscribe(onNext: { first.append($0) })
        _ = source.subscribe(onNext: { second.append($0) })
        XCTAssertEqual(first, [1, 2])
        XCTAssertEqual(second, [1, 2])
    }
}
