import RxCore
import RxTesting
import XCTest

final class SampleTests: XCTestCase {
    private let testError = CombiningTestError.error

    private func source(_ scheduler: TestScheduler, _ extra: [Recorded<Event<Int>>] = [], end: Recorded<Event<Int>> = .completed(400)) -> TestableObservable<Int> {
        scheduler.createHotObservable([.next(150, 1), .next(220, 2), .next(240, 3), .next(290, 4), .next(300, 5), .next(310, 6)] + extra + [end])
    }

    private func sampler(_ scheduler: TestScheduler, end: Recorded<Event<String>> = .completed(500)) -> TestableObservable<String> {
        scheduler.createHotObservable([.next(150, ""), .next(210, "bar"), .next(250, "foo"), .next(260, "qux"), .next(320, "baz"), end])
    }

    func testEmitsTheLatestNewElementAtEachTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let ys = sampler(scheduler)
        let res = scheduler.start { xs.sample(ys) }
        // 210: nothing yet; 260: nothing new since 250; 500: the sampler's completion samples
        // once more (nothing new) and completes, the source having completed at 400.
        XCTAssertEqual(res.events, [.next(250, 3), .next(320, 6), .completed(500)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 400)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 500)])
    }

    func testSamplerCompletionEmitsAPendingElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, [.next(360, 7)])
        let ys = sampler(scheduler)
        let res = scheduler.start { xs.sample(ys) }
        XCTAssertEqual(res.events, [.next(250, 3), .next(320, 6), .next(500, 7), .completed(500)])
    }

    func testCompletesAtTheFirstTickAfterTheSourceCompleted() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(220, 2), .next(240, 3), .next(290, 4), .completed(300)])
        let ys = sampler(scheduler)
        let res = scheduler.start { xs.sample(ys) }
        XCTAssertEqual(res.events, [.next(250, 3), .next(320, 4), .completed(320)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 320)])
    }

    func testDefaultValueWhenNothingNewArrived() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let ys = sampler(scheduler)
        let res = scheduler.start { xs.sample(ys, defaultValue: 0) }
        XCTAssertEqual(res.events, [.next(210, 0), .next(250, 3), .next(260, 0), .next(320, 6), .next(500, 0), .completed(500)])
    }

    func testSourceErrorIsForwarded() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, end: .error(320, testError))
        let ys = scheduler.createHotObservable([.next(150, ""), .next(210, "bar"), .next(250, "foo"), .next(260, "qux"), .next(300, "baz"), .completed(400)])
        let res = scheduler.start { xs.sample(ys) }
        XCTAssertEqual(res.events, [.next(250, 3), .next(300, 5), .error(320, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 320)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 320)])
    }

    func testSamplerErrorIsForwarded() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let ys = scheduler.createHotObservable([.next(150, ""), .next(210, "bar"), .next(250, "foo"), .next(260, "qux"), .error(320, testError)])
        let res = scheduler.start { xs.sample(ys) }
        XCTAssertEqual(res.events, [.next(250, 3), .error(320, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 320)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 320)])
    }

    func testSamplerCompletingFirstLeavesItRunning() {
        // As RxSwift: with the sampler gone nothing can complete the result, even after the
        // source completes.
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler, end: .completed(400))
        let ys = sampler(scheduler, end: .completed(330))
        let res = scheduler.start { xs.sample(ys) }
        XCTAssertEqual(res.events, [.next(250, 3), .next(320, 6)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 400)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 330)])
    }
}
