import RxCore
import RxTesting
import XCTest

final class WithLatestFromTests: XCTestCase {
    private let testError = CombiningTestError.error

    private func sources(_ scheduler: TestScheduler, secondEnd: Recorded<Event<String>> = .completed(400))
        -> (TestableObservable<Int>, TestableObservable<String>) {
        let xs = scheduler.createHotObservable([
            .next(90, 1), .next(180, 2), .next(250, 3), .next(260, 4), .next(310, 5), .next(340, 6),
            .next(410, 7), .next(420, 8), .next(470, 9), .next(550, 10), .completed(590),
        ])
        let ys = scheduler.createHotObservable([.next(255, "bar"), .next(330, "foo"), .next(350, "qux"), secondEnd])
        return (xs, ys)
    }

    func testEmitsOnFirstsElementsOnceSecondHasAValue() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, ys) = sources(scheduler)
        let res = scheduler.start { xs.withLatestFrom(ys) { "\($0)\($1)" } }
        // 3 at 250 is dropped (no value yet); ys' completion at 400 is ignored and "qux" stays.
        XCTAssertEqual(res.events, [
            .next(260, "4bar"), .next(310, "5bar"), .next(340, "6foo"),
            .next(410, "7qux"), .next(420, "8qux"), .next(470, "9qux"), .next(550, "10qux"),
            .completed(590),
        ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 590)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 400)])
    }

    func testWithoutSelectorEmitsTheSecondsValue() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, ys) = sources(scheduler)
        let res = scheduler.start(disposed: 345) { xs.withLatestFrom(ys) }
        XCTAssertEqual(res.events, [.next(260, "bar"), .next(310, "bar"), .next(340, "foo")])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 345)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 345)])
    }

    func testSecondsErrorIsForwarded() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, ys) = sources(scheduler, secondEnd: .error(345, testError))
        let res = scheduler.start { xs.withLatestFrom(ys) { "\($0)\($1)" } }
        XCTAssertEqual(res.events, [.next(260, "4bar"), .next(310, "5bar"), .next(340, "6foo"), .error(345, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 345)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 345)])
    }

    func testFirstsErrorIsForwarded() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(260, 4), .error(300, testError)])
        let ys = scheduler.createHotObservable([.next(255, "bar"), .completed(500)])
        let res = scheduler.start { xs.withLatestFrom(ys) { "\($0)\($1)" } }
        XCTAssertEqual(res.events, [.next(260, "4bar"), .error(300, testError)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 300)])
    }

    func testFirstsCompletionCompletesAndUnsubscribesTheSecond() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(260, 4), .completed(300)])
        let ys = scheduler.createHotObservable([.next(255, "bar")])
        let res = scheduler.start { xs.withLatestFrom(ys) { "\($0)\($1)" } }
        XCTAssertEqual(res.events, [.next(260, "4bar"), .completed(300)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 300)])
    }

    func testThrowingSelectorErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let (xs, ys) = sources(scheduler)
        let res = scheduler.start {
            xs.withLatestFrom(ys) { (x: Int, y: String) throws -> String in
                if x == 5 { throw self.testError }
                return "\(x)\(y)"
            }
        }
        XCTAssertEqual(res.events, [.next(260, "4bar"), .error(310, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 310)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 310)])
    }

    func testSecondIsSubscribedFirst() {
        // A second source that has a value synchronously (as a BehaviorSubject does) provides
        // it for an element the first source emits synchronously on subscription.
        var log: [String] = []
        let first = Observable<Int>.create { observer in
            log.append("subscribe first")
            observer.onNext(1)
            return Disposables.create()
        }
        let second = Observable<String>.create { observer in
            log.append("subscribe second")
            observer.onNext("a")
            observer.onCompleted()
            return Disposables.create()
        }
        var values: [String] = []
        _ = first.withLatestFrom(second) { "\($0)\($1)" }.subscribe(onNext: { values.append($0) })
        XCTAssertEqual(log, ["subscribe second", "subscribe first"])
        XCTAssertEqual(values, ["1a"], "second's completion is ignored; its value stays in use")
    }
}
