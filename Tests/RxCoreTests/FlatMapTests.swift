import RxCore
import RxTesting
import XCTest

final class FlatMapTests: XCTestCase {
    private let testError = CombiningTestError.error

    /// Inner i emits 10i at +10, 10i + 1 at +30 and completes at +40.
    private func inners(_ scheduler: TestScheduler, _ count: Int) -> [TestableObservable<Int>] {
        (0...count).map { i in scheduler.createColdObservable([.next(10, 10 * i), .next(30, 10 * i + 1), .completed(40)]) }
    }

    func testCompletesWhenOuterAndEveryInnerHaveCompleted() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = inners(scheduler, 2)
        let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(220, 2), .completed(230)])
        let res = scheduler.start { xs.flatMap { ys[$0] } }
        XCTAssertEqual(res.events, [.next(220, 10), .next(230, 20), .next(240, 11), .next(250, 21), .completed(260)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys[1].subscriptions, [Subscription(210, 250)])
        XCTAssertEqual(ys[2].subscriptions, [Subscription(220, 260)])
    }

    func testOuterCompletingLastCompletesIt() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = inners(scheduler, 1)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(400)])
        let res = scheduler.start { xs.flatMap { ys[$0] } }
        XCTAssertEqual(res.events, [.next(220, 10), .next(240, 11), .completed(400)])
    }

    func testInnerErrorEndsIt() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = inners(scheduler, 1)
        let failing = scheduler.createColdObservable([.next(5, 99), .error(12, testError)])
        let xs = scheduler.createHotObservable([.next(210, 1), .next(225, 2), .completed(400)])
        let res = scheduler.start { xs.flatMap { $0 == 1 ? ys[1] : failing } }
        XCTAssertEqual(res.events, [.next(220, 10), .next(230, 99), .error(237, testError)])
        XCTAssertEqual(ys[1].subscriptions, [Subscription(210, 237)])
        XCTAssertEqual(failing.subscriptions, [Subscription(225, 237)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 237)])
    }

    func testThrowingSelectorEndsIt() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = inners(scheduler, 1)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(225, 2), .completed(400)])
        let res = scheduler.start {
            xs.flatMap { (value: Int) throws -> TestableObservable<Int> in
                if value == 2 { throw self.testError }
                return ys[value]
            }
        }
        XCTAssertEqual(res.events, [.next(220, 10), .error(225, testError)])
        XCTAssertEqual(ys[1].subscriptions, [Subscription(210, 225)])
    }

    func testSynchronousInners() {
        var values: [Int] = []
        var completed = false
        _ = Observable.just(3)
            .flatMap { n in Observable.merge((1...n).map { Observable.just($0) }) }
            .subscribe(onNext: { values.append($0) }, onCompleted: { completed = true })
        XCTAssertEqual(values, [1, 2, 3])
        XCTAssertTrue(completed)
    }

    // MARK: - flatMapFirst

    func testFlatMapFirstIgnoresElementsWhileAnInnerRuns() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = inners(scheduler, 3)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(260, 3), .completed(290)])
        var mapped: [Int] = []
        let res = scheduler.start {
            xs.flatMapFirst { (value: Int) -> TestableObservable<Int> in
                mapped.append(value)
                return ys[value]
            }
        }
        XCTAssertEqual(res.events, [.next(220, 10), .next(240, 11), .next(270, 30), .next(290, 31), .completed(300)])
        XCTAssertEqual(mapped, [1, 3], "the selector is not called for dropped elements")
        XCTAssertEqual(ys[1].subscriptions, [Subscription(210, 250)])
        XCTAssertEqual(ys[2].subscriptions, [])
        XCTAssertEqual(ys[3].subscriptions, [Subscription(260, 300)])
    }

    func testFlatMapFirstErrorOfTheInnerEndsIt() {
        let scheduler = TestScheduler(initialClock: 0)
        let failing = scheduler.createColdObservable([.error(15, testError)] as [Recorded<Event<Int>>])
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(400)])
        let res = scheduler.start { xs.flatMapFirst { _ in failing } }
        XCTAssertEqual(res.events, [.error(225, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
    }
}
