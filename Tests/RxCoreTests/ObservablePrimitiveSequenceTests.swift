import RxCore
import RxTesting
import XCTest

/// `asSingle()`, `first()` and `toArray()` return `Single`, as in RxSwift 6.
final class ObservablePrimitiveSequenceTests: XCTestCase {
    func testAsSingleOfOneElementWaitsForCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        let res = scheduler.start { xs.asSingle() }
        XCTAssertEqual(res.events, [.next(250, 1), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testAsSingleOfEmptyFailsWithNoElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(250)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.asSingle() }
        XCTAssertEqual(res.events, [.error(250, RxError.noElements)])
    }

    func testAsSingleOfTwoFailsAtTheSecond() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
        let res = scheduler.start { xs.asSingle() }
        XCTAssertEqual(res.events, [.error(220, RxError.moreThanOneElement)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testAsSingleForwardsAnError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        let res = scheduler.start { xs.asSingle() }
        XCTAssertEqual(res.events, [.error(220, testError)])
    }

    func testAsSingleDisposedEarly() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        let res = scheduler.start(disposed: 250) { xs.asSingle() }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testAsSingleOfAnOptionalNil() {
        var values: [Int?] = []
        _ = Observable<Int?>.just(nil).asSingle().subscribe(onSuccess: { values.append($0) })
        XCTAssertEqual(values, [nil])
    }

    func testFirstIsASingleOfAnOptional() {
        let first: Single<Int?> = Observable.of(1, 2, 3).first()
        var values: [Int?] = []
        _ = first.subscribe(onSuccess: { values.append($0) })
        _ = Observable<Int>.empty().first().subscribe(onSuccess: { values.append($0) })
        XCTAssertEqual(values, [1, nil])
    }

    func testToArrayIsASingleOfAnArray() {
        let array: Single<[Int]> = Observable.of(1, 2, 3).toArray()
        var values: [[Int]] = []
        _ = array.subscribe(onSuccess: { values.append($0) })
        XCTAssertEqual(values, [[1, 2, 3]])
    }

    func testIgnoreElementsStaysAnObservableWithAsCompletable() {
        let ignored: Observable<Never> = Observable.of(1, 2).ignoreElements()
        var log: [String] = []
        _ = ignored.asCompletable().subscribe(onCompleted: { log.append("completed") })
        XCTAssertEqual(log, ["completed"])
    }
}
