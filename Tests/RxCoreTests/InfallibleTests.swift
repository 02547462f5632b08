import RxCore
import RxTesting
import XCTest

final class InfallibleTests: XCTestCase {
    private func values<Element>(_ infallible: Infallible<Element>) -> [String] {
        var log: [String] = []
        _ = infallible.subscribe(
            onNext: { log.append("\($0)") },
            onCompleted: { log.append("completed") },
            onDisposed: { log.append("disposed") }
        )
        return log
    }

    // MARK: - Conversions

    func testAsInfallibleOnErrorJustReturn() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        let res = scheduler.start { xs.asInfallible(onErrorJustReturn: 9) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 9), .completed(220)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testAsInfallibleOnErrorFallbackTo() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        let ys = scheduler.createColdObservable([.next(10, 2), .completed(20)])
        let res = scheduler.start { xs.asInfallible(onErrorFallbackTo: ys.asInfallible(onErrorJustReturn: 0)) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 2), .completed(240)])
        XCTAssertEqual(ys.subscriptions, [Subscription(220, 240)])
    }

    func testAsInfallibleOnErrorRecover() {
        var seen: [String] = []
        let infallible = Observable<Int>.error(testError).asInfallible(onErrorRecover: { error in
            seen.append("\(error)")
            return .just(5)
        })
        XCTAssertEqual(values(infallible), ["5", "completed", "disposed"])
        XCTAssertEqual(seen, ["\(testError)"])
    }

    func testAsInfallibleOfADriverKeepsItsScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        var res: TestableObserver<Int>!
        SharingScheduler.mock(scheduler: scheduler) {
            res = scheduler.start { Driver.just(1).asInfallible() }
        }
        XCTAssertEqual(res.events.first, .next(201, 1))
    }

    // MARK: - create and subscribe

    func testCreate() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Infallible<Int>.create { observer in
                observer(.next(1))
                observer(.next(2))
                observer(.completed)
                observer(.next(3))
                return Disposables.create()
            }
        }
        XCTAssertEqual(res.events, [.next(200, 1), .next(200, 2), .completed(200)])
    }

    func testSubscribeEventHandlerAndDispose() {
        var log: [String] = []
        let subject = PublishSubject<Int>()
        let subscription = subject.asInfallible(onErrorJustReturn: -1).subscribe { event in
            switch event {
            case .next(let element): log.append("next(\(element))")
            case .completed: log.append("completed")
            }
        }
        subject.onNext(1)
        subscription.dispose()
        subject.onNext(2)
        XCTAssertEqual(log, ["next(1)"])
        XCTAssertFalse(subject.hasObservers)
    }

    func testSubscribeWithObject() {
        final class Owner { var log: [String] = [] }
        var owner: Owner? = Owner()
        let subject = PublishSubject<Int>()
        let infallible = subject.asInfallible(onErrorJustReturn: 0)
        _ = infallible.subscribe(with: owner!, onNext: { $0.log.append("next(\($1))") }, onCompleted: { $0.log.append("completed") })
        subject.onNext(1)
        XCTAssertEqual(owner?.log, ["next(1)"])
        weak let gone = owner
        owner = nil
        subject.onNext(2)
        XCTAssertNil(gone)
    }

    func testReentrantDisposeInsideOnNext() {
        var log: [Int] = []
        let subject = PublishSubject<Int>()
        var subscription: Disposable?
        subscription = subject.asInfallible(onErrorJustReturn: 0).subscribe(onNext: { value in
            log.append(value)
            subscription?.dispose()
        })
        subject.onNext(1)
        subject.onNext(2)
        XCTAssertEqual(log, [1])
    }

    // MARK: - Creating

    func testCreatingOperators() {
        XCTAssertEqual(values(Infallible.just(1)), ["1", "completed", "disposed"])
        XCTAssertEqual(values(Infallible<Int>.empty()), ["completed", "disposed"])
        XCTAssertEqual(values(Infallible<Int>.never()), [])
        XCTAssertEqual(values(Infallible.of(1, 2)), ["1", "2", "completed", "disposed"])
        XCTAssertEqual(values(Infallible.from([3, 4])), ["3", "4", "completed", "disposed"])
        XCTAssertEqual(values(Infallible.from(5...6)), ["5", "6", "completed", "disposed"])
        var calls = 0
        let deferred = Infallible<Int>.deferred {
            calls += 1
            return .just(calls)
        }
        XCTAssertEqual(values(deferred) + values(deferred), ["1", "completed", "disposed", "2", "completed", "disposed"])
    }

    func testTimerAndInterval() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 235) { Infallible<Int>.interval(.seconds(10), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 0), .next(220, 1), .next(230, 2)])
        let scheduler2 = TestScheduler(initialClock: 0)
        XCTAssertEqual(scheduler2.start { Infallible<Int>.timer(.seconds(5), scheduler: scheduler2) }.events, [.next(205, 0), .completed(205)])
    }

    // MARK: - Operators

    func testTransformingOperators() {
        let source = Infallible.of(1, 2, 2, 3)
        XCTAssertEqual(values(source.map { $0 * 2 }), ["2", "4", "4", "6", "completed", "disposed"])
        XCTAssertEqual(values(source.filter { $0 != 2 }), ["1", "3", "completed", "disposed"])
        XCTAssertEqual(values(source.compactMap { $0 == 2 ? nil : $0 }), ["1", "3", "completed", "disposed"])
        XCTAssertEqual(values(source.distinctUntilChanged()), ["1", "2", "3", "completed", "disposed"])
        XCTAssertEqual(values(source.distinctUntilChanged { $0 / 2 }), ["1", "2", "completed", "disposed"])
        XCTAssertEqual(values(source.distinctUntilChanged(at: \.self)), ["1", "2", "3", "completed", "disposed"])
        XCTAssertEqual(values(source.scan(0, accumulator: +)), ["1", "3", "5", "8", "completed", "disposed"])
        XCTAssertEqual(values(source.scan(into: 0) { $0 += $1 }), ["1", "3", "5", "8", "completed", "disposed"])
        XCTAssertEqual(values(source.startWith(0).take(2)), ["0", "1", "completed", "disposed"])
        XCTAssertEqual(values(source.take(while: { $0 < 2 })), ["1", "completed", "disposed"])
        XCTAssertEqual(values(source.take(until: { $0 == 2 }, behavior: .inclusive)), ["1", "2", "completed", "disposed"])
        XCTAssertEqual(values(source.skip(while: { $0 < 3 })), ["3", "completed", "disposed"])
    }

    func testFlatteningOperators() {
        let source = Infallible.of(1, 2)
        XCTAssertEqual(values(source.flatMap { Infallible.of($0, $0 * 10) }), ["1", "10", "2", "20", "completed", "disposed"])
        XCTAssertEqual(values(source.concatMap { Infallible.of($0, $0) }), ["1", "1", "2", "2", "completed", "disposed"])
        XCTAssertEqual(values(source.flatMapLatest { Infallible.just($0) }), ["1", "2", "completed", "disposed"])
        XCTAssertEqual(values(source.flatMapFirst { Infallible.just($0) }), ["1", "2", "completed", "disposed"])
    }

    func testCombiningOperators() {
        XCTAssertEqual(values(Infallible.just(1).concat(Infallible.just(2))), ["1", "2", "completed", "disposed"])
        XCTAssertEqual(values(Infallible.concat(Infallible.just(1), Infallible.just(2))), ["1", "2", "completed", "disposed"])
        XCTAssertEqual(values(Infallible.concat([Infallible.just(1), Infallible.just(2)])), ["1", "2", "completed", "disposed"])
        XCTAssertEqual(values(Infallible.merge(Infallible.just(1), Infallible.just(2))), ["1", "2", "completed", "disposed"])
        XCTAssertEqual(values(Infallible.merge([Infallible.just(1), Infallible.just(2)])), ["1", "2", "completed", "disposed"])
    }

    func testMergeInterleavesRatherThanConcatenates() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(30, 3), .completed(30)])
        let ys = scheduler.createColdObservable([.next(20, 2), .completed(20)])
        let sources = [xs.asInfallible(onErrorJustReturn: 0), ys.asInfallible(onErrorJustReturn: 0)]
        let res = scheduler.start { Infallible.merge(sources[...]) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .next(230, 3), .completed(230)])
    }

    func testCombineLatestAndZipArities() {
        let a = Infallible.of(1, 2)
        let b = Infallible.just(10)
        XCTAssertEqual(values(Infallible.combineLatest(a, b) { $0 + $1 }), ["11", "12", "completed", "disposed"])
        XCTAssertEqual(values(Infallible.zip(a, b) { $0 + $1 }), ["11", "completed", "disposed"])
        XCTAssertEqual(values(Infallible.combineLatest(a, b).map { "\($0)-\($1)" }), ["1-10", "2-10", "completed", "disposed"])
        XCTAssertEqual(values(Infallible.zip(b, b, b, b, b, b, b, b).map { $0.0 + $0.7 }), ["20", "completed", "disposed"])
        XCTAssertEqual(values(Infallible.combineLatest([a, b])), ["[1, 10]", "[2, 10]", "completed", "disposed"])
        XCTAssertEqual(values(Infallible.zip([a, b]) { $0.reduce(0, +) }), ["11", "completed", "disposed"])
    }

    func testWithLatestFromAndWithUnretained() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(240)])
        let ys = scheduler.createHotObservable([.next(220, 10), .completed(250)])
        let res = scheduler.start {
            xs.asInfallible(onErrorJustReturn: 0).withLatestFrom(ys.asInfallible(onErrorJustReturn: 0)) { $0 + $1 }
        }
        XCTAssertEqual(res.events, [.next(230, 12), .completed(240)])

        final class Owner {}
        var owner: Owner? = Owner()
        let subject = PublishSubject<Int>()
        var log: [String] = []
        _ = subject.asInfallible(onErrorJustReturn: 0).withUnretained(owner!).subscribe(
            onNext: { _, value in log.append("next(\(value))") },
            onCompleted: { log.append("completed") }
        )
        subject.onNext(1)
        owner = nil
        subject.onNext(2)
        XCTAssertEqual(log, ["next(1)", "completed"])
    }

    func testTimeOperators() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .next(240, 3), .completed(300)])
        let res = scheduler.start { xs.asInfallible(onErrorJustReturn: 0).debounce(.seconds(10), scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(225, 2), .next(250, 3), .completed(300)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
        let res2 = scheduler2.start { ys.asInfallible(onErrorJustReturn: 0).take(for: .seconds(20), scheduler: scheduler2) }
        XCTAssertEqual(res2.events, [.next(210, 1), .completed(220)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 220)])
    }

    func testTakeAndSkipUntil() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
        let stop = scheduler.createHotObservable([.next(220, 0)])
        let res = scheduler.start { xs.asInfallible(onErrorJustReturn: 0).take(until: stop.asInfallible(onErrorJustReturn: 0)) }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(220)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
        let start = scheduler2.createHotObservable([.next(220, 0)])
        let res2 = scheduler2.start { ys.asInfallible(onErrorJustReturn: 0).skip(until: start) }
        XCTAssertEqual(res2.events, [.next(230, 2), .completed(300)])
    }

    func testShareSubscribesOnce() {
        var subscriptions = 0
        let subject = PublishSubject<Int>()
        let shared = Infallible<Int>.deferred {
            subscriptions += 1
            return subject.asInfallible(onErrorJustReturn: 0)
        }.share(replay: 1)
        var a: [Int] = []
        var b: [Int] = []
        let s1 = shared.subscribe(onNext: { a.append($0) })
        subject.onNext(1)
        let s2 = shared.subscribe(onNext: { b.append($0) })
        subject.onNext(2)
        s1.dispose()
        s2.dispose()
        XCTAssertEqual(subscriptions, 1)
        XCTAssertEqual(a, [1, 2])
        XCTAssertEqual(b, [1, 2])
    }

    func testDoCallbacks() {
        var log: [String] = []
        _ = Infallible.just(1).do(
            onNext: { log.append("onNext(\($0))") },
            afterNext: { log.append("afterNext(\($0))") },
            onCompleted: { log.append("onCompleted") },
            onSubscribe: { log.append("onSubscribe") }
        ).subscribe(onNext: { log.append("next(\($0))") })
        XCTAssertEqual(log, ["onSubscribe", "onNext(1)", "next(1)", "afterNext(1)", "onCompleted"])
    }

    // MARK: - Bind and Driver

    func testBindToObserversRelaysAndClosures() {
        let relay = PublishRelay<Int>()
        let optionalRelay = BehaviorRelay<Int?>(value: nil)
        var relayed: [Int] = []
        _ = relay.subscribe(onNext: { relayed.append($0) })
        let subject = PublishSubject<Int>()
        let infallible = subject.asInfallible(onErrorJustReturn: 0)
        _ = infallible.bind(to: relay)
        _ = infallible.bind(to: optionalRelay)
        var bound: [Int] = []
        _ = infallible.bind(onNext: { bound.append($0) })
        let observer = PublishSubject<Int>()
        var observed: [Int] = []
        _ = observer.subscribe(onNext: { observed.append($0) })
        _ = infallible.bind(to: observer)
        subject.onNext(3)
        XCTAssertEqual(relayed, [3])
        XCTAssertEqual(optionalRelay.value, 3)
        XCTAssertEqual(bound, [3])
        XCTAssertEqual(observed, [3])
    }

    func testAsDriverDeliversOnTheMainLoop() {
        let scheduler = TestScheduler(initialClock: 0)
        var res: TestableObserver<Int>!
        SharingScheduler.mock(scheduler: scheduler) {
            res = scheduler.start { Infallible.just(4).asDriver() }
        }
        XCTAssertEqual(res.events, [.next(201, 4), .completed(202)])
    }
}

final class RelaysInfallibleTests: XCTestCase {
    func testRelaysAsInfallible() {
        let behavior = BehaviorRelay(value: 0)
        let publish = PublishRelay<Int>()
        let replay = ReplayRelay<Int>.create(bufferSize: 1)
        replay.accept(7)
        var log: [String] = []
        _ = behavior.asInfallible().subscribe(onNext: { log.append("behavior(\($0))") })
        _ = publish.asInfallible().subscribe(onNext: { log.append("publish(\($0))") })
        _ = replay.asInfallible().subscribe(onNext: { log.append("replay(\($0))") })
        behavior.accept(1)
        publish.accept(2)
        replay.accept(3)
        XCTAssertEqual(log, ["behavior(0)", "replay(7)", "behavior(1)", "publish(2)", "replay(3)"])
    }
}
