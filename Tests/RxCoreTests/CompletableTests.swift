import RxCore
import RxTesting
import XCTest

final class CompletableTests: XCTestCase {
    private func log(_ completable: Completable) -> [String] {
        var log: [String] = []
        _ = completable.subscribe(
            onCompleted: { log.append("completed") },
            onError: { log.append("error(\($0))") },
            onDisposed: { log.append("disposed") }
        )
        return log
    }

    func testCreate() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Completable.create { observer in
            observer(.completed)
            observer(.error(testError))
            return Disposables.create()
        } }
        XCTAssertEqual(res.events, [.completed(200)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let res2 = scheduler2.start { Completable.create { observer in
            observer(.error(testError))
            return Disposables.create()
        } }
        XCTAssertEqual(res2.events, [.error(200, testError)])
    }

    func testSubscribeHandlersAndObserver() {
        XCTAssertEqual(log(.empty()), ["completed", "disposed"])
        XCTAssertEqual(log(.error(testError)), ["error(\(testError))", "disposed"])
        XCTAssertEqual(log(.never()), [])

        var events: [String] = []
        _ = Completable.empty().subscribe { event in
            switch event {
            case .completed: events.append("completed")
            case .error(let error): events.append("error(\(error))")
            }
        }
        XCTAssertEqual(events, ["completed"])
    }

    func testSubscribeWithObjectAndDispose() {
        final class Owner { var log: [String] = [] }
        let owner = Owner()
        let subscription = Completable.never().subscribe(with: owner, onCompleted: { $0.log.append("completed") }, onDisposed: { $0.log.append("disposed") })
        subscription.dispose()
        _ = Completable.empty().subscribe(with: owner, onCompleted: { $0.log.append("completed") })
        XCTAssertEqual(owner.log, ["disposed", "completed"])
    }

    func testDoCallbacks() {
        var log: [String] = []
        _ = Completable.error(testError).do(
            onError: { log.append("onError(\($0))") },
            afterError: { log.append("afterError(\($0))") },
            onCompleted: { log.append("onCompleted") },
            onSubscribe: { log.append("onSubscribe") },
            onSubscribed: { log.append("onSubscribed") }
        ).subscribe(onError: { log.append("error(\($0))") })
        XCTAssertEqual(log, ["onSubscribe", "onError(\(testError))", "error(\(testError))", "afterError(\(testError))", "onSubscribed"])
    }

    func testConcatRunsOneAfterAnother() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.completed(10)] as [Recorded<Event<Never>>])
        let ys = scheduler.createColdObservable([.completed(20)] as [Recorded<Event<Never>>])
        let res = scheduler.start { xs.asCompletable().concat(ys.asCompletable()) }
        XCTAssertEqual(res.events, [.completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])
    }

    func testConcatStopsAtTheFirstError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.error(10, testError)] as [Recorded<Event<Never>>])
        let ys = scheduler.createColdObservable([.completed(20)] as [Recorded<Event<Never>>])
        let res = scheduler.start { Completable.concat([xs.asCompletable(), ys.asCompletable()]) }
        XCTAssertEqual(res.events, [.error(210, testError)])
        XCTAssertEqual(ys.subscriptions, [])

        XCTAssertEqual(log(Completable.concat(Completable.empty(), Completable.empty())), ["completed", "disposed"])
        XCTAssertEqual(log(Completable.concat(AnySequence([Completable.empty(), .error(testError)]))), ["error(\(testError))", "disposed"])
    }

    func testZipRunsAllAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.completed(30)] as [Recorded<Event<Never>>])
        let ys = scheduler.createColdObservable([.completed(20)] as [Recorded<Event<Never>>])
        let res = scheduler.start { Completable.zip(xs.asCompletable(), ys.asCompletable()) }
        XCTAssertEqual(res.events, [.completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 220)])
    }

    func testZipFirstErrorDisposesTheOthers() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.completed(30)] as [Recorded<Event<Never>>])
        let ys = scheduler.createColdObservable([.error(20, testError)] as [Recorded<Event<Never>>])
        let res = scheduler.start { Completable.zip([xs.asCompletable(), ys.asCompletable()]) }
        XCTAssertEqual(res.events, [.error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(log(Completable.zip([Completable]())), ["completed", "disposed"])
        XCTAssertEqual(log(Completable.zip(Set<Int>([1, 2]).map { _ in Completable.empty() })), ["completed", "disposed"])
    }

    func testAsCompletableOfIgnoreElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        let res = scheduler.start { xs.ignoreElements().asCompletable() }
        XCTAssertEqual(res.events, [.completed(220)])
    }

    func testDelayRetryAndCatch() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Completable.empty().delaySubscription(.seconds(5), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.completed(205)])
        XCTAssertEqual(log(Completable.error(testError).catch { _ in .empty() }), ["completed", "disposed"])

        var attempts = 0
        let flaky = Completable.deferred {
            attempts += 1
            return attempts < 3 ? .error(testError) : .empty()
        }
        XCTAssertEqual(log(flaky.retry(3)), ["completed", "disposed"])
        XCTAssertEqual(attempts, 3)
    }
}
