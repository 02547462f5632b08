import RxCore
import RxTesting
import XCTest

final class SingleTests: XCTestCase {
    // MARK: - create and subscribe

    func testCreateSuccessSendsElementThenCompleted() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Single<Int>.create { observer in
                observer(.success(1))
                observer(.success(2))
                observer(.failure(testError))
                return Disposables.create()
            }
        }
        XCTAssertEqual(res.events, [.next(200, 1), .completed(200)])
    }

    func testCreateFailureSendsError() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Single<Int>.create { observer in
                observer(.failure(testError))
                observer(.success(1))
                return Disposables.create()
            }
        }
        XCTAssertEqual(res.events, [.error(200, testError)])
    }

    func testCreateDisposesTheBodysDisposableWhenItSucceedsLater() {
        let scheduler = TestScheduler(initialClock: 0)
        var send: ((SingleEvent<Int>) -> Void)?
        var disposedAt: Int?
        scheduler.scheduleAt(230) { send?(.success(4)) }
        scheduler.scheduleAt(240) { send?(.failure(testError)) }
        let res = scheduler.start {
            Single<Int>.create { observer in
                send = observer
                return Disposables.create { disposedAt = scheduler.clock }
            }
        }
        XCTAssertEqual(res.events, [.next(230, 4), .completed(230)])
        XCTAssertEqual(disposedAt, 230)
    }

    func testCreateDisposesTheBodysDisposableOnDispose() {
        var disposed = false
        let single = Single<Int>.create { _ in Disposables.create { disposed = true } }
        let subscription = single.subscribe(onSuccess: { _ in XCTFail("no element") })
        XCTAssertFalse(disposed)
        subscription.dispose()
        XCTAssertTrue(disposed)
    }

    func testSubscribeObserverGetsExactlyOneEvent() {
        var events: [String] = []
        let source = ManualSource<Int>()
        _ = source.observable.asSingle().subscribe { event in
            switch event {
            case .success(let element): events.append("success(\(element))")
            case .failure(let error): events.append("failure(\(error))")
            }
        }
        source.onNext(1)
        source.onCompleted()
        XCTAssertEqual(events, ["success(1)"])
    }

    func testSubscribeObserverOfASingleThatCompletesEmptyFailsWithNoElements() {
        // `retry(when:)` completes when its notifier does, even for a single (as in
        // RxSwift); the observer reports the broken promise instead of dropping it.
        var events: [String] = []
        let completesEmpty = Single<Int>.error(testError).retry(when: { (errors: Observable<Error>) in errors.take(0) })
        _ = completesEmpty.subscribe { event in
            if case .failure(let error) = event { events.append("\(error)") }
        }
        XCTAssertEqual(events, ["\(RxError.noElements)"])
    }

    func testSubscribeHandlersOnSuccessThenDisposed() {
        var log: [String] = []
        _ = Single.just(1).subscribe(
            onSuccess: { log.append("success(\($0))") },
            onFailure: { log.append("failure(\($0))") },
            onDisposed: { log.append("disposed") }
        )
        XCTAssertEqual(log, ["success(1)", "disposed"])
    }

    func testSubscribeHandlersOnFailureThenDisposed() {
        var log: [String] = []
        _ = Single<Int>.error(testError).subscribe(
            onSuccess: { log.append("success(\($0))") },
            onFailure: { log.append("failure(\($0))") },
            onDisposed: { log.append("disposed") }
        )
        XCTAssertEqual(log, ["failure(\(testError))", "disposed"])
    }

    func testExplicitDisposeCallsOnlyOnDisposedOnce() {
        var log: [String] = []
        let subscription = Single<Int>.never().subscribe(
            onSuccess: { log.append("success(\($0))") },
            onFailure: { log.append("failure(\($0))") },
            onDisposed: { log.append("disposed") }
        )
        subscription.dispose()
        subscription.dispose()
        XCTAssertEqual(log, ["disposed"])
    }

    func testMissingFailureHandlerGoesToTheDefaultErrorHandler() {
        var reported: [String] = []
        let saved = Hooks.defaultErrorHandler
        Hooks.defaultErrorHandler = { _, error in reported.append("\(error)") }
        defer { Hooks.defaultErrorHandler = saved }
        _ = Single<Int>.error(testError).subscribe(onSuccess: { _ in })
        XCTAssertEqual(reported, ["\(testError)"])
    }

    func testSubscribeWithObjectPassesItAndSkipsOnceGone() {
        final class Owner { var values: [Int] = [] }
        var owner: Owner? = Owner()
        let subject = PublishSubject<Int>()
        let single = subject.asSingle()
        var disposedWith = 0
        _ = single.subscribe(with: owner!, onSuccess: { $0.values.append($1) }, onDisposed: { _ in disposedWith += 1 })
        subject.onNext(5)
        subject.onCompleted()
        XCTAssertEqual(owner?.values, [5])
        XCTAssertEqual(disposedWith, 1)

        var called = false
        let later = PublishSubject<Int>()
        _ = later.asSingle().subscribe(with: owner!, onSuccess: { _, _ in called = true })
        owner = nil
        later.onNext(1)
        later.onCompleted()
        XCTAssertFalse(called)
    }

    func testReentrantDisposeInsideOnSuccess() {
        var log: [String] = []
        let subject = PublishSubject<Int>()
        var subscription: Disposable?
        subscription = subject.asSingle().subscribe(
            onSuccess: { value in
                log.append("success(\(value))")
                subscription?.dispose()
            },
            onDisposed: { log.append("disposed") }
        )
        subject.onNext(1)
        subject.onCompleted()
        XCTAssertEqual(log, ["success(1)", "disposed"])
        XCTAssertFalse(subject.hasObservers)
    }

    // MARK: - Creating

    func testJustErrorNever() {
        let scheduler = TestScheduler(initialClock: 0)
        XCTAssertEqual(scheduler.start { Single.just(7) }.events, [.next(200, 7), .completed(200)])
        let scheduler2 = TestScheduler(initialClock: 0)
        XCTAssertEqual(scheduler2.start { Single<Int>.error(testError) }.events, [.error(200, testError)])
        let scheduler3 = TestScheduler(initialClock: 0)
        XCTAssertEqual(scheduler3.start { Single<Int>.never() }.events, [])
    }

    func testJustOnASchedulerSendsOnIt() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Single.just(7, scheduler: scheduler) }
        XCTAssertEqual(res.events.first, .next(201, 7))
        XCTAssertEqual(res.events.count, 2)
    }

    func testDeferredCallsTheFactoryPerSubscription() {
        var calls = 0
        let single = Single<Int>.deferred {
            calls += 1
            return .just(calls)
        }
        var values: [Int] = []
        _ = single.subscribe(onSuccess: { values.append($0) })
        _ = single.subscribe(onSuccess: { values.append($0) })
        XCTAssertEqual(values, [1, 2])
    }

    func testDeferredThrowingFactoryFails() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Single<Int>.deferred { throw testError } }
        XCTAssertEqual(res.events, [.error(200, testError)])
    }

    func testTimer() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Single<Int>.timer(.seconds(20), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(220, 0), .completed(220)])
    }

    func testUsingDisposesTheResourceWithTheSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        var resourceDisposedAt: [Int] = []
        let xs = scheduler.createColdObservable([.next(30, 1), .completed(30)])
        let res = scheduler.start {
            Single<Int>.using({ UsingTestResource { resourceDisposedAt.append(scheduler.clock) } },
                              primitiveSequenceFactory: { _ in xs.asSingle() })
        }
        XCTAssertEqual(res.events, [.next(230, 1), .completed(230)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(resourceDisposedAt, [230])
    }

    func testUsingThrowingFactoryFails() {
        let scheduler = TestScheduler(initialClock: 0)
        var resourceDisposed = false
        let res = scheduler.start {
            Single<Int>.using({ UsingTestResource { resourceDisposed = true } },
                              primitiveSequenceFactory: { _ in throw testError })
        }
        XCTAssertEqual(res.events, [.error(200, testError)])
        XCTAssertTrue(resourceDisposed)
    }

    // MARK: - Transforming

    func testMap() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .completed(210)])
        let res = scheduler.start { xs.asSingle().map { $0 * 10 } }
        XCTAssertEqual(res.events, [.next(210, 20), .completed(210)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
    }

    func testMapThrowingFails() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Single.just(1).map { _ -> Int in throw testError } }
        XCTAssertEqual(res.events, [.error(200, testError)])
    }

    func testFilterGivesAMaybe() {
        let scheduler = TestScheduler(initialClock: 0)
        let kept: Maybe<Int> = Single.just(2).filter { $0 > 1 }
        XCTAssertEqual(scheduler.start { kept }.events, [.next(200, 2), .completed(200)])
        let scheduler2 = TestScheduler(initialClock: 0)
        XCTAssertEqual(scheduler2.start { Single.just(1).filter { $0 > 1 } }.events, [.completed(200)])
    }

    func testCompactMapGivesAMaybe() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Single.just("x").compactMap { Int($0) } }
        XCTAssertEqual(res.events, [.completed(200)])
    }

    func testFlatMap() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(210)])
        let ys = scheduler.createColdObservable([.next(20, 2), .completed(20)])
        let res = scheduler.start { xs.asSingle().flatMap { a in ys.asSingle().map { a + $0 } } }
        XCTAssertEqual(res.events, [.next(230, 3), .completed(230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 230)])
    }

    func testFlatMapMaybeAndCompletable() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Single.just(1).flatMapMaybe { _ in Maybe<String>.empty() } }
        XCTAssertEqual(res.events, [.completed(200)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createColdObservable([.completed(15)] as [Recorded<Event<Never>>])
        let res2 = scheduler2.start { Single.just(1).flatMapCompletable { _ in ys.asCompletable() } }
        XCTAssertEqual(res2.events, [.completed(215)])
    }

    func testFlatMapSelectorThrowing() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Single.just(1).flatMap { _ -> Single<Int> in throw testError } }
        XCTAssertEqual(res.events, [.error(200, testError)])
    }

    // MARK: - Errors

    func testCatch() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.error(210, testError)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.asSingle().catch { _ in .just(9) } }
        XCTAssertEqual(res.events, [.next(210, 9), .completed(210)])
    }

    func testCatchAndReturn() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Single<Int>.error(testError).catchAndReturn(4) }
        XCTAssertEqual(res.events, [.next(200, 4), .completed(200)])
    }

    func testRetryResubscribes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.error(10, testError)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.asSingle().retry(3) }
        XCTAssertEqual(res.events, [.error(230, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210), Subscription(210, 220), Subscription(220, 230)])
    }

    func testRetryWhenRetriesOnEachNotifierElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.error(10, testError)] as [Recorded<Event<Int>>])
        let res = scheduler.start {
            xs.asSingle().retry(when: { (errors: Observable<TestError>) in
                errors.retryAttemptIndex().flatMap { index -> Observable<Int> in
                    index < 2 ? Observable<Int>.timer(.seconds(5), scheduler: scheduler) : .error(testError2)
                }
            })
        }
        XCTAssertEqual(res.events, [.error(240, testError2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210), Subscription(215, 225), Subscription(230, 240)])
    }

    func testRetryWhenNotifierCompletionCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.error(10, testError)] as [Recorded<Event<Int>>])
        let stop = scheduler.createHotObservable([.next(215, 0)])
        let res = scheduler.start {
            xs.asSingle().retry(when: { (errors: Observable<Error>) in errors.map { _ in 0 }.take(until: stop) })
        }
        // RxSwift's timing (its traits use Observable.retry(when:)): a new attempt stops
        // listening to the notifier until its own error, so the completion at 215 is not
        // seen before the attempt fails at 220.
        XCTAssertEqual(res.events, [.completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210), Subscription(210, 220)])
    }

    func testRetryWhenErrorOfAnotherTypeFailsAtOnce() {
        struct Other: Error {}
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.error(10, testError)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.asSingle().retry(when: { (errors: Observable<Other>) in errors }) }
        XCTAssertEqual(res.events, [.error(210, testError)])
    }

    func testRetryWhenSuccessAfterARetry() {
        let scheduler = TestScheduler(initialClock: 0)
        var attempts = 0
        let single = Single<Int>.deferred {
            attempts += 1
            return attempts < 2 ? .error(testError) : .just(attempts)
        }
        let res = scheduler.start { single.retry(when: { (errors: Observable<Error>) in errors }) }
        XCTAssertEqual(res.events, [.next(200, 2), .completed(200)])
    }

    // MARK: - Time

    func testDelay() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(210)])
        let res = scheduler.start { xs.asSingle().delay(.seconds(30), scheduler: scheduler) }
        // The completion is scheduled after the element, one tick later (Observable.delay).
        XCTAssertEqual(res.events, [.next(240, 1), .completed(241)])
    }

    func testDelaySubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let res = scheduler.start { xs.asSingle().delaySubscription(.seconds(30), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(240, 1), .completed(240)])
        XCTAssertEqual(xs.subscriptions, [Subscription(230, 240)])
    }

    func testTimeoutFails() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(260, 1), .completed(260)])
        let res = scheduler.start { xs.asSingle().timeout(.seconds(50), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.error(250, RxError.timeout)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testTimeoutSwitchesToOther() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(260, 1), .completed(260)])
        let other = scheduler.createColdObservable([.next(5, 2), .completed(5)])
        let res = scheduler.start { xs.asSingle().timeout(.seconds(50), other: other.asSingle(), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(255, 2), .completed(255)])
        XCTAssertEqual(other.subscriptions, [Subscription(250, 255)])
    }

    func testTimeoutNotReached() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(220, 1), .completed(220)])
        let res = scheduler.start { xs.asSingle().timeout(.seconds(50), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(220, 1), .completed(220)])
    }

    func testObserveOnAndSubscribeOn() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(210)])
        let res = scheduler.start { xs.asSingle().observe(on: scheduler) }
        // Each event is scheduled in turn (Observable.observe(on:)).
        XCTAssertEqual(res.events, [.next(211, 1), .completed(212)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createHotObservable([.next(210, 1), .completed(210)])
        let res2 = scheduler2.start { ys.asSingle().subscribe(on: scheduler2) }
        XCTAssertEqual(res2.events, [.next(210, 1), .completed(210)])
        XCTAssertEqual(ys.subscriptions, [Subscription(201, 210)])
    }

    // MARK: - Side effects

    func testDoCallbacksInOrder() {
        var log: [String] = []
        let single = Single.just(1).do(
            onSuccess: { log.append("onSuccess(\($0))") },
            afterSuccess: { log.append("afterSuccess(\($0))") },
            onError: { log.append("onError(\($0))") },
            afterError: { log.append("afterError(\($0))") },
            onSubscribe: { log.append("onSubscribe") },
            onSubscribed: { log.append("onSubscribed") },
            onDispose: { log.append("onDispose") }
        )
        _ = single.subscribe(onSuccess: { log.append("success(\($0))") })
        XCTAssertEqual(log, ["onSubscribe", "onSuccess(1)", "success(1)", "afterSuccess(1)", "onSubscribed", "onDispose"])
    }

    func testDoOnErrorAndThrowingOnSuccess() {
        var log: [String] = []
        _ = Single<Int>.error(testError).do(onError: { log.append("onError(\($0))") }, afterError: { log.append("afterError(\($0))") })
            .subscribe(onFailure: { log.append("failure(\($0))") })
        XCTAssertEqual(log, ["onError(\(testError))", "failure(\(testError))", "afterError(\(testError))"])

        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Single.just(1).do(onSuccess: { _ in throw testError }) }
        XCTAssertEqual(res.events, [.error(200, testError)])
    }

    func testDebugPassesEventsThrough() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Single.just(3).debug("single") }
        XCTAssertEqual(res.events, [.next(200, 3), .completed(200)])
    }

    // MARK: - Conversions

    func testAsMaybeAndAsCompletable() {
        let scheduler = TestScheduler(initialClock: 0)
        XCTAssertEqual(scheduler.start { Single.just(1).asMaybe() }.events, [.next(200, 1), .completed(200)])
        let scheduler2 = TestScheduler(initialClock: 0)
        XCTAssertEqual(scheduler2.start { Single.just(1).asCompletable() }.events, [.completed(200)])
        let scheduler3 = TestScheduler(initialClock: 0)
        XCTAssertEqual(scheduler3.start { Single<Int>.error(testError).asCompletable() }.events, [.error(200, testError)])
    }
}

extension ObservableType {
    /// The index of each element (0, 1, 2, …); for tests, without `enumerated()`.
    func retryAttemptIndex() -> Observable<Int> {
        scan(-1) { index, _ in index + 1 }
    }
}

/// A resource for `using`: a concrete `Disposable` that runs `onDispose`.
final class UsingTestResource: Disposable {
    private let onDispose: () -> Void

    init(_ onDispose: @escaping () -> Void) {
        self.onDispose = onDispose
    }

    func dispose() { onDispose() }
}
