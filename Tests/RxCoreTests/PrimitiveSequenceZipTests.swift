import RxCore
import RxTesting
import XCTest

final class PrimitiveSequenceZipTests: XCTestCase {
    func testSingleZipTwoWaitsForBoth() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let ys = scheduler.createColdObservable([.next(30, 2), .completed(30)])
        let res = scheduler.start { Single.zip(xs.asSingle(), ys.asSingle()) { $0 + $1 } }
        XCTAssertEqual(res.events, [.next(230, 3), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 230)])
    }

    func testSingleZipTupleForm() {
        var result: (Int, String)?
        _ = Single.zip(Single.just(1), Single.just("a")).subscribe(onSuccess: { result = $0 })
        XCTAssertEqual(result?.0, 1)
        XCTAssertEqual(result?.1, "a")
    }

    func testSingleZipEight() {
        var sum = 0
        let s = Single.just(1)
        _ = Single.zip(s, s, s, s, s, s, s, s) { $0 + $1 + $2 + $3 + $4 + $5 + $6 + $7 }.subscribe(onSuccess: { sum = $0 })
        XCTAssertEqual(sum, 8)

        var tuple: (Int, Int, Int, Int, Int, Int, Int, Int)?
        _ = Single.zip(s, s, s, s, s, s, s, s).subscribe(onSuccess: { tuple = $0 })
        XCTAssertEqual(tuple?.7, 1)
    }

    func testSingleZipFirstErrorDisposesTheOther() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.error(10, testError)] as [Recorded<Event<Int>>])
        let ys = scheduler.createColdObservable([.next(30, 2), .completed(30)])
        let res = scheduler.start { Single.zip(xs.asSingle(), ys.asSingle()) { $0 + $1 } }
        XCTAssertEqual(res.events, [.error(210, testError)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 210)])
    }

    func testSingleZipThrowingSelector() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Single.zip(Single.just(1), Single.just(2)) { _, _ -> Int in throw testError } }
        XCTAssertEqual(res.events, [.error(200, testError)])
    }

    func testMaybeZipEmptyCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Maybe.zip(Maybe.just(1), Maybe<Int>.empty()) { $0 + $1 } }
        XCTAssertEqual(res.events, [.completed(200)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let res2 = scheduler2.start { Maybe.zip(Maybe.just(1), Maybe.just(2), Maybe.just(3)) { $0 + $1 + $2 } }
        XCTAssertEqual(res2.events, [.next(200, 6), .completed(200)])
    }

    func testSingleZipCollection() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let ys = scheduler.createColdObservable([.next(20, 2), .completed(20)])
        let res = scheduler.start { Single.zip([xs.asSingle(), ys.asSingle()]) }
        XCTAssertEqual(res.events.map(\.time), [220, 220])
        XCTAssertEqual(res.events.first?.value.element, [1, 2])

        let scheduler2 = TestScheduler(initialClock: 0)
        let xs2 = scheduler2.createColdObservable([.next(10, 1), .completed(10)])
        let ys2 = scheduler2.createColdObservable([.next(20, 2), .completed(20)])
        let res2 = scheduler2.start { Single.zip([xs2.asSingle(), ys2.asSingle()]) { $0.reduce(0, +) } }
        XCTAssertEqual(res2.events, [.next(220, 3), .completed(220)])
    }

    func testSingleZipEmptyCollection() {
        var values: [[Int]] = []
        _ = Single.zip([Single<Int>]()).subscribe(onSuccess: { values.append($0) })
        XCTAssertEqual(values, [[]])

        var calls = 0
        let zipped = Single.zip([Single<Int>]()) { (elements: [Int]) -> Int in
            calls += 1
            return elements.count
        }
        XCTAssertEqual(calls, 0, "the selector runs on subscription")
        var counts: [Int] = []
        _ = zipped.subscribe(onSuccess: { counts.append($0) })
        XCTAssertEqual(counts, [0])
        XCTAssertEqual(calls, 1)

        var failure: String?
        _ = Single.zip([Single<Int>]()) { _ -> Int in throw testError }.subscribe(onFailure: { failure = "\($0)" })
        XCTAssertEqual(failure, "\(testError)")
    }
}
