import RxCore
import RxTesting
import XCTest

final class MergeTests: XCTestCase {
    private let testError = CombiningTestError.error

    // MARK: - Static forms

    func testVariadicInterleavesAndCompletesWhenAllComplete() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(230, 3), .completed(300)])
        let e1 = scheduler.createHotObservable([.next(150, 0), .next(220, 2), .next(240, 4), .completed(350)])
        let res = scheduler.start { Observable.merge(e0.asObservable(), e1.asObservable()) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(350)])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 300)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 350)])
    }

    func testArrayAndCollectionForms() {
        for useSlice in [false, true] {
            let scheduler = TestScheduler(initialClock: 0)
            let e0 = scheduler.createHotObservable([.next(210, 1), .completed(300)])
            let e1 = scheduler.createHotObservable([.next(220, 2), .completed(250)])
            let e2 = scheduler.createHotObservable([.next(230, 3), .completed(260)])
            let sources = [e0.asObservable(), e1.asObservable(), e2.asObservable()]
            let res = scheduler.start { useSlice ? Observable.merge(sources[0...]) : Observable.merge(sources) }
            XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        }
    }

    func testNoSourcesCompletesAtOnce() {
        let res = TestScheduler(initialClock: 0).start { Observable<Int>.merge([]) }
        XCTAssertEqual(res.events, [.completed(200)])
    }

    func testErrorEndsItAndUnsubscribesEverySource() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(210, 1), .error(230, testError), .next(240, 9)])
        let e1 = scheduler.createHotObservable([.next(220, 2), .next(250, 4), .completed(350)])
        let res = scheduler.start { Observable.merge(e0.asObservable(), e1.asObservable()) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .error(230, testError)])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 230)])
    }

    func testSynchronousSources() {
        var values: [Int] = []
        var completed = false
        _ = Observable.merge(Observable.just(1), Observable.just(2))
            .subscribe(onNext: { values.append($0) }, onCompleted: { completed = true })
        XCTAssertEqual(values, [1, 2])
        XCTAssertTrue(completed)
    }

    // MARK: - merge() of an observable of observables

    func testMergeCompletesWhenOuterAndEveryInnerHaveCompleted() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1 = scheduler.createColdObservable([.next(10, 101), .next(20, 102), .completed(30)])
        let ys2 = scheduler.createColdObservable([.next(7, 201), .next(40, 202), .completed(50)])
        let xs = scheduler.createHotObservable([.next(210, ys1), .next(225, ys2), .completed(250)])
        let res = scheduler.start { xs.merge() }
        XCTAssertEqual(res.events, [.next(220, 101), .next(230, 102), .next(232, 201), .next(265, 202), .completed(275)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(ys1.subscriptions, [Subscription(210, 240)])
        XCTAssertEqual(ys2.subscriptions, [Subscription(225, 275)])
    }

    func testMergeWaitsForTheOuterToComplete() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1 = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let xs = scheduler.createHotObservable([.next(210, ys1), .completed(300)])
        let res = scheduler.start { xs.merge() }
        XCTAssertEqual(res.events, [.next(220, 1), .completed(300)])
    }

    func testInnerErrorEndsItAndDisposesTheOtherInners() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1 = scheduler.createColdObservable([.next(10, 1), .next(100, 2), .completed(200)])
        let ys2 = scheduler.createColdObservable([.next(5, 10), .error(20, testError)])
        let xs = scheduler.createHotObservable([.next(210, ys1), .next(230, ys2), .completed(500)])
        let res = scheduler.start { xs.merge() }
        XCTAssertEqual(res.events, [.next(220, 1), .next(235, 10), .error(250, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(ys1.subscriptions, [Subscription(210, 250)])
        XCTAssertEqual(ys2.subscriptions, [Subscription(230, 250)])
    }

    func testOuterErrorEndsItAndDisposesTheInners() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1 = scheduler.createColdObservable([.next(10, 1), .next(100, 2), .completed(200)])
        let xs = scheduler.createHotObservable([.next(210, ys1), .error(240, testError)])
        let res = scheduler.start { xs.merge() }
        XCTAssertEqual(res.events, [.next(220, 1), .error(240, testError)])
        XCTAssertEqual(ys1.subscriptions, [Subscription(210, 240)])
    }

    func testDisposeUnsubscribesOuterAndInners() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1 = scheduler.createColdObservable([.next(10, 1), .next(100, 2), .completed(200)])
        let xs = scheduler.createHotObservable([.next(210, ys1), .completed(500)])
        let res = scheduler.start(disposed: 250) { xs.merge() }
        XCTAssertEqual(res.events, [.next(220, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(ys1.subscriptions, [Subscription(210, 250)])
    }

    // MARK: - merge(maxConcurrent:)

    func testMaxConcurrentQueuesInnersUntilOneCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1 = scheduler.createColdObservable([.next(10, 1), .completed(50)])
        let ys2 = scheduler.createColdObservable([.next(10, 2), .completed(100)])
        let ys3 = scheduler.createColdObservable([.next(10, 3), .completed(20)])
        let ys4 = scheduler.createColdObservable([.next(5, 4), .completed(10)])
        let xs = scheduler.createHotObservable([.next(210, ys1), .next(220, ys2), .next(230, ys3), .next(240, ys4), .completed(245)])
        let res = scheduler.start { xs.merge(maxConcurrent: 2) }
        // ys3 takes ys1's slot at 260, ys4 takes ys3's at 280; ys2 finishes last at 320.
        XCTAssertEqual(res.events, [.next(220, 1), .next(230, 2), .next(270, 3), .next(285, 4), .completed(320)])
        XCTAssertEqual(ys1.subscriptions, [Subscription(210, 260)])
        XCTAssertEqual(ys2.subscriptions, [Subscription(220, 320)])
        XCTAssertEqual(ys3.subscriptions, [Subscription(260, 280)])
        XCTAssertEqual(ys4.subscriptions, [Subscription(280, 290)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 245)])
    }

    func testMaxConcurrentCompletesAtOnceWhenNothingRuns() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1 = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let xs = scheduler.createHotObservable([.next(210, ys1), .completed(300)])
        let res = scheduler.start { xs.merge(maxConcurrent: 1) }
        XCTAssertEqual(res.events, [.next(220, 1), .completed(300)])
    }

    func testMaxConcurrentInnerErrorDropsTheQueue() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1 = scheduler.createColdObservable([.next(10, 1), .error(20, testError)])
        let ys2 = scheduler.createColdObservable([.next(10, 2), .completed(20)])
        let xs = scheduler.createHotObservable([.next(210, ys1), .next(215, ys2), .completed(300)])
        let res = scheduler.start { xs.merge(maxConcurrent: 1) }
        XCTAssertEqual(res.events, [.next(220, 1), .error(230, testError)])
        XCTAssertEqual(ys2.subscriptions, [], "the queued inner is never subscribed")
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
    }
}
