import RxCore
import RxTesting
import XCTest

final class CompletableAndThenTests: XCTestCase {
    func testAndThenSingleSubscribesAfterCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.completed(10)] as [Recorded<Event<Never>>])
        let ys = scheduler.createColdObservable([.next(20, 1), .completed(20)])
        let res = scheduler.start { xs.asCompletable().andThen(ys.asSingle()) }
        XCTAssertEqual(res.events, [.next(230, 1), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])
    }

    func testAndThenErrorOfTheCompletableSkipsTheSecond() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.error(10, testError)] as [Recorded<Event<Never>>])
        let ys = scheduler.createColdObservable([.next(20, 1), .completed(20)])
        let res = scheduler.start { xs.asCompletable().andThen(ys.asSingle()) }
        XCTAssertEqual(res.events, [.error(210, testError)])
        XCTAssertEqual(ys.subscriptions, [])
    }

    func testAndThenErrorOfTheSecond() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = scheduler.createColdObservable([.error(20, testError)] as [Recorded<Event<Int>>])
        let res = scheduler.start { Completable.empty().andThen(ys.asMaybe()) }
        XCTAssertEqual(res.events, [.error(220, testError)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 220)])
    }

    func testAndThenMaybeCompletableAndObservable() {
        let scheduler = TestScheduler(initialClock: 0)
        XCTAssertEqual(scheduler.start { Completable.empty().andThen(Maybe<Int>.empty()) }.events, [.completed(200)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let zs = scheduler2.createColdObservable([.completed(5)] as [Recorded<Event<Never>>])
        XCTAssertEqual(scheduler2.start { Completable.empty().andThen(zs.asCompletable()) }.events, [.completed(205)])

        let scheduler3 = TestScheduler(initialClock: 0)
        let ws = scheduler3.createColdObservable([.next(5, 1), .next(10, 2), .completed(15)])
        let res = scheduler3.start { Completable.empty().andThen(ws.asObservable()) }
        XCTAssertEqual(res.events, [.next(205, 1), .next(210, 2), .completed(215)])
    }

    func testDisposeBeforeCompletionNeverSubscribesTheSecond() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.completed(100)] as [Recorded<Event<Never>>])
        let ys = scheduler.createColdObservable([.next(20, 1), .completed(20)])
        let res = scheduler.start(disposed: 250) { xs.asCompletable().andThen(ys.asSingle()) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(ys.subscriptions, [])
    }

    func testDisposeWhileTheSecondRunsDisposesIt() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.completed(10)] as [Recorded<Event<Never>>])
        let ys = scheduler.createColdObservable([.next(100, 1), .completed(100)])
        let res = scheduler.start(disposed: 250) { xs.asCompletable().andThen(ys.asSingle()) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 250)])
    }

    func testSynchronousCompletionChains() {
        var log: [String] = []
        _ = Completable.empty()
            .andThen(Completable.empty())
            .andThen(Single.just(1))
            .subscribe(onSuccess: { log.append("success(\($0))") }, onDisposed: { log.append("disposed") })
        XCTAssertEqual(log, ["success(1)", "disposed"])
    }

    func testReentrantDisposeFromTheSecondsElement() {
        var log: [String] = []
        let subject = PublishSubject<Int>()
        var subscription: Disposable?
        subscription = Completable.empty().andThen(subject.asObservable()).subscribe(onNext: { value in
            log.append("next(\(value))")
            subscription?.dispose()
        })
        subject.onNext(1)
        subject.onNext(2)
        XCTAssertEqual(log, ["next(1)"])
        XCTAssertFalse(subject.hasObservers)
    }
}
