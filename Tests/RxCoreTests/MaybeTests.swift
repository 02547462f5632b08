import RxCore
import RxTesting
import XCTest

final class MaybeTests: XCTestCase {
    private func log(_ maybe: Maybe<Int>) -> [String] {
        var log: [String] = []
        _ = maybe.subscribe(
            onSuccess: { log.append("success(\($0))") },
            onError: { log.append("error(\($0))") },
            onCompleted: { log.append("completed") },
            onDisposed: { log.append("disposed") }
        )
        return log
    }

    // MARK: - create and subscribe

    func testCreateEachEvent() {
        let scheduler = TestScheduler(initialClock: 0)
        let success = scheduler.start { Maybe<Int>.create { observer in
            observer(.success(1))
            observer(.completed)
            return Disposables.create()
        } }
        XCTAssertEqual(success.events, [.next(200, 1), .completed(200)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let completed = scheduler2.start { Maybe<Int>.create { observer in
            observer(.completed)
            observer(.success(1))
            return Disposables.create()
        } }
        XCTAssertEqual(completed.events, [.completed(200)])

        let scheduler3 = TestScheduler(initialClock: 0)
        let failed = scheduler3.start { Maybe<Int>.create { observer in
            observer(.error(testError))
            return Disposables.create()
        } }
        XCTAssertEqual(failed.events, [.error(200, testError)])
    }

    func testSubscribeHandlers() {
        XCTAssertEqual(log(.just(1)), ["success(1)", "disposed"])
        XCTAssertEqual(log(.empty()), ["completed", "disposed"])
        XCTAssertEqual(log(.error(testError)), ["error(\(testError))", "disposed"])
        XCTAssertEqual(log(.never()), [])
    }

    func testExplicitDisposeCallsOnlyOnDisposed() {
        var log: [String] = []
        let subscription = Maybe<Int>.never().subscribe(onSuccess: { log.append("success(\($0))") }, onDisposed: { log.append("disposed") })
        subscription.dispose()
        subscription.dispose()
        XCTAssertEqual(log, ["disposed"])
    }

    func testSubscribeObserverGetsOneEvent() {
        var events: [String] = []
        let subject = PublishSubject<Int>()
        _ = subject.asMaybe().subscribe { event in
            switch event {
            case .success(let element): events.append("success(\(element))")
            case .error(let error): events.append("error(\(error))")
            case .completed: events.append("completed")
            }
        }
        subject.onNext(1)
        subject.onCompleted()
        XCTAssertEqual(events, ["success(1)"])
    }

    func testSubscribeWithObject() {
        final class Owner { var log: [String] = [] }
        let owner = Owner()
        _ = Maybe<Int>.empty().subscribe(with: owner, onSuccess: { $0.log.append("success(\($1))") }, onCompleted: { $0.log.append("completed") })
        _ = Maybe.just(2).subscribe(with: owner, onSuccess: { $0.log.append("success(\($1))") }, onCompleted: { $0.log.append("completed") })
        XCTAssertEqual(owner.log, ["completed", "success(2)"])
    }

    func testMissingErrorHandlerGoesToTheDefaultErrorHandler() {
        var reported: [String] = []
        let saved = Hooks.defaultErrorHandler
        Hooks.defaultErrorHandler = { _, error in reported.append("\(error)") }
        defer { Hooks.defaultErrorHandler = saved }
        _ = Maybe<Int>.error(testError).subscribe(onSuccess: { _ in })
        XCTAssertEqual(reported, ["\(testError)"])
    }

    func testReentrantDisposeInsideOnSuccess() {
        var log: [String] = []
        let subject = PublishSubject<Int>()
        var subscription: Disposable?
        subscription = subject.asMaybe().subscribe(
            onSuccess: { value in
                log.append("success(\(value))")
                subscription?.dispose()
            },
            onCompleted: { log.append("completed") },
            onDisposed: { log.append("disposed") }
        )
        subject.onNext(1)
        subject.onCompleted()
        XCTAssertEqual(log, ["success(1)", "disposed"])
        XCTAssertFalse(subject.hasObservers)
    }

    // MARK: - Operators

    func testJustEmptyNeverError() {
        let scheduler = TestScheduler(initialClock: 0)
        XCTAssertEqual(scheduler.start { Maybe.just(1) }.events, [.next(200, 1), .completed(200)])
        let scheduler2 = TestScheduler(initialClock: 0)
        XCTAssertEqual(scheduler2.start { Maybe<Int>.empty() }.events, [.completed(200)])
        let scheduler3 = TestScheduler(initialClock: 0)
        XCTAssertEqual(scheduler3.start { Maybe<Int>.never() }.events, [])
        let scheduler4 = TestScheduler(initialClock: 0)
        XCTAssertEqual(scheduler4.start { Maybe<Int>.error(testError) }.events, [.error(200, testError)])
    }

    func testMapFilterCompactMapFlatMap() {
        XCTAssertEqual(log(Maybe.just(2).map { $0 * 3 }), ["success(6)", "disposed"])
        XCTAssertEqual(log(Maybe.just(2).filter { $0 > 5 }), ["completed", "disposed"])
        XCTAssertEqual(log(Maybe.just(2).compactMap { $0 > 1 ? $0 : nil }), ["success(2)", "disposed"])
        XCTAssertEqual(log(Maybe.just(2).flatMap { Maybe.just($0 + 1) }), ["success(3)", "disposed"])
        XCTAssertEqual(log(Maybe<Int>.empty().flatMap { Maybe.just($0 + 1) }), ["completed", "disposed"])
    }

    func testIfEmptyDefault() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(220)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.asMaybe().ifEmpty(default: 5) }
        XCTAssertEqual(res.events, [.next(220, 5), .completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])

        XCTAssertEqual(log(Maybe.just(1).ifEmpty(default: 5).asMaybe()), ["success(1)", "disposed"])
    }

    func testIfEmptySwitchTo() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(220)] as [Recorded<Event<Int>>])
        let ys = scheduler.createColdObservable([.next(10, 7), .completed(10)])
        let res = scheduler.start { xs.asMaybe().ifEmpty(switchTo: ys.asSingle()) }
        XCTAssertEqual(res.events, [.next(230, 7), .completed(230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(220, 230)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let zs = scheduler2.createColdObservable([.error(10, testError)] as [Recorded<Event<Int>>])
        let res2 = scheduler2.start { Maybe<Int>.empty().ifEmpty(switchTo: zs.asMaybe()) }
        XCTAssertEqual(res2.events, [.error(210, testError)])
    }

    func testIfEmptySwitchToNotUsedWhenThereIsAnElementOrAnError() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = scheduler.createColdObservable([.next(10, 7), .completed(10)])
        let res = scheduler.start { Maybe.just(1).ifEmpty(switchTo: ys.asMaybe()) }
        XCTAssertEqual(res.events, [.next(200, 1), .completed(200)])
        XCTAssertEqual(ys.subscriptions, [])
        XCTAssertEqual(log(Maybe<Int>.error(testError).ifEmpty(switchTo: Maybe.just(1))), ["error(\(testError))", "disposed"])
    }

    func testIfEmptySwitchToDisposesTheSwitchedSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = scheduler.createColdObservable([.next(100, 7), .completed(100)])
        let res = scheduler.start(disposed: 250) { Maybe<Int>.empty().ifEmpty(switchTo: ys.asMaybe()) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 250)])
    }

    func testCatchAndReturnAndCatch() {
        XCTAssertEqual(log(Maybe<Int>.error(testError).catchAndReturn(3)), ["success(3)", "disposed"])
        XCTAssertEqual(log(Maybe<Int>.error(testError).catch { _ in .empty() }), ["completed", "disposed"])
    }

    func testDoCallbacks() {
        var log: [String] = []
        _ = Maybe<Int>.empty().do(
            onNext: { log.append("onNext(\($0))") },
            onCompleted: { log.append("onCompleted") },
            afterCompleted: { log.append("afterCompleted") },
            onSubscribe: { log.append("onSubscribe") }
        ).subscribe(onCompleted: { log.append("completed") })
        XCTAssertEqual(log, ["onSubscribe", "onCompleted", "completed", "afterCompleted"])
    }

    func testRetryAndTimeout() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.error(10, testError)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.asMaybe().retry(2) }
        XCTAssertEqual(res.events, [.error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210), Subscription(210, 220)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let res2 = scheduler2.start { Maybe<Int>.never().timeout(.seconds(10), other: .empty(), scheduler: scheduler2) }
        XCTAssertEqual(res2.events, [.completed(210)])
    }

    // MARK: - asMaybe

    func testAsMaybeOfOneEmptyAndTwoElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let one = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        XCTAssertEqual(scheduler.start { one.asMaybe() }.events, [.next(220, 1), .completed(220)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let empty = scheduler2.createHotObservable([.completed(220)] as [Recorded<Event<Int>>])
        XCTAssertEqual(scheduler2.start { empty.asMaybe() }.events, [.completed(220)])

        let scheduler3 = TestScheduler(initialClock: 0)
        let two = scheduler3.createHotObservable([.next(210, 1), .next(215, 2), .completed(220)])
        XCTAssertEqual(scheduler3.start { two.asMaybe() }.events, [.error(215, RxError.moreThanOneElement)])
        XCTAssertEqual(two.subscriptions, [Subscription(200, 215)])
    }

    func testAsMaybeForwardsErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        XCTAssertEqual(scheduler.start { xs.asMaybe() }.events, [.error(220, testError)])
    }
}
