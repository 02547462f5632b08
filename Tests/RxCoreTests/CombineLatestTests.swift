import RxCore
import RxTesting
import XCTest

final class CombineLatestTests: XCTestCase {
    private let testError = CombiningTestError.error
    private let testError1 = CombiningTestError.error1
    private let testError2 = CombiningTestError.error2

    /// Both public forms of the 2-source overload, so each scenario checks both.
    private let factories: [(TestableObservable<Int>, TestableObservable<Int>) -> Observable<Int>] = [
        { e0, e1 in Observable.combineLatest(e0, e1) { $0 + $1 } },
        { e0, e1 in Observable.combineLatest(e0, e1).map { $0 + $1 } },
    ]

    // MARK: - Emission

    func testNeverEmptyNeverEmits() {
        for factory in factories {
            let scheduler = TestScheduler(initialClock: 0)
            let e0 = scheduler.createHotObservable([.next(150, 1)])
            let e1 = scheduler.createHotObservable([.next(150, 1), .completed(210)])
            let res = scheduler.start { factory(e0, e1) }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(e0.subscriptions, [Subscription(200, 1000)])
            XCTAssertEqual(e1.subscriptions, [Subscription(200, 210)], "a completed source is unsubscribed at once")
        }
    }

    func testEmitsOnceEverySourceHasAValueThenOnEachElement() {
        for factory in factories {
            let scheduler = TestScheduler(initialClock: 0)
            let e0 = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .next(240, 4), .completed(300)])
            let e1 = scheduler.createHotObservable([.next(150, 1), .next(230, 10), .next(250, 20), .next(260, 30), .completed(310)])
            let res = scheduler.start { factory(e0, e1) }
            XCTAssertEqual(res.events, [
                .next(230, 3 + 10),
                .next(240, 4 + 10),
                .next(250, 4 + 20),
                .next(260, 4 + 30),
                .completed(310),
            ])
            XCTAssertEqual(e0.subscriptions, [Subscription(200, 300)])
            XCTAssertEqual(e1.subscriptions, [Subscription(200, 310)])
        }
    }

    func testReturnReturnCompletesWhenTheLastSourceCompletes() {
        for factory in factories {
            let scheduler = TestScheduler(initialClock: 0)
            let e0 = scheduler.createHotObservable([.next(150, 1), .next(215, 2), .completed(230)])
            let e1 = scheduler.createHotObservable([.next(150, 1), .next(220, 3), .completed(240)])
            let res = scheduler.start { factory(e0, e1) }
            XCTAssertEqual(res.events, [.next(220, 2 + 3), .completed(240)])
            XCTAssertEqual(e0.subscriptions, [Subscription(200, 230)])
            XCTAssertEqual(e1.subscriptions, [Subscription(200, 240)])
        }
    }

    func testLatestValueOfACompletedSourceKeepsBeingCombined() {
        for factory in factories {
            let scheduler = TestScheduler(initialClock: 0)
            let e0 = scheduler.createHotObservable([.next(210, 1), .completed(220)])
            let e1 = scheduler.createHotObservable([.next(230, 10), .next(240, 20), .completed(250)])
            let res = scheduler.start { factory(e0, e1) }
            XCTAssertEqual(res.events, [.next(230, 11), .next(240, 21), .completed(250)])
        }
    }

    // MARK: - A source that completes without a value

    func testEmptyReturnCompletesAtTheOtherSourcesNextElement() {
        for factory in factories {
            let scheduler = TestScheduler(initialClock: 0)
            let e0 = scheduler.createHotObservable([.next(150, 1), .completed(210)])
            let e1 = scheduler.createHotObservable([.next(150, 1), .next(215, 2), .completed(220)])
            let res = scheduler.start { factory(e0, e1) }
            XCTAssertEqual(res.events, [.completed(215)])
            XCTAssertEqual(e0.subscriptions, [Subscription(200, 210)])
            XCTAssertEqual(e1.subscriptions, [Subscription(200, 215)])
        }
    }

    func testReturnEmptyCompletesAtTheOtherSourcesNextElement() {
        for factory in factories {
            let scheduler = TestScheduler(initialClock: 0)
            let e0 = scheduler.createHotObservable([.next(150, 1), .next(215, 2), .completed(220)])
            let e1 = scheduler.createHotObservable([.next(150, 1), .completed(210)])
            let res = scheduler.start { factory(e0, e1) }
            XCTAssertEqual(res.events, [.completed(215)])
            XCTAssertEqual(e0.subscriptions, [Subscription(200, 215)])
            XCTAssertEqual(e1.subscriptions, [Subscription(200, 210)])
        }
    }

    func testEmptyNeverDoesNotCompleteWithoutAnotherEvent() {
        for factory in factories {
            let scheduler = TestScheduler(initialClock: 0)
            let e0 = scheduler.createHotObservable([.next(150, 1), .completed(210)])
            let e1 = scheduler.createHotObservable([.next(150, 1)])
            let res = scheduler.start { factory(e0, e1) }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(e0.subscriptions, [Subscription(200, 210)])
            XCTAssertEqual(e1.subscriptions, [Subscription(200, 1000)])
        }
    }

    func testEmptyOfThreeCompletesOnlyOnceEveryOtherSourceIsDone() {
        // RxSwift completes early only when an element arrives and every *other* source
        // has completed; with a third source still running it keeps waiting.
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.completed(210)] as [Recorded<Event<Int>>])
        let e1 = scheduler.createHotObservable([.next(220, 1), .next(240, 2), .completed(500)])
        let e2 = scheduler.createHotObservable([.completed(230)] as [Recorded<Event<Int>>])
        let res = scheduler.start { Observable.combineLatest(e0, e1, e2) { $0 + $1 + $2 } }
        XCTAssertEqual(res.events, [.completed(240)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 240)])
    }

    // MARK: - Errors

    func testEmptyErrorForwardsTheErrorAndUnsubscribesBoth() {
        for factory in factories {
            let scheduler = TestScheduler(initialClock: 0)
            let e0 = scheduler.createHotObservable([.next(150, 1), .completed(230)])
            let e1 = scheduler.createHotObservable([.next(150, 1), .error(220, testError)])
            let res = scheduler.start { factory(e0, e1) }
            XCTAssertEqual(res.events, [.error(220, testError)])
            XCTAssertEqual(e0.subscriptions, [Subscription(200, 220)])
            XCTAssertEqual(e1.subscriptions, [Subscription(200, 220)])
        }
    }

    func testReturnThrowForwardsTheError() {
        for factory in factories {
            let scheduler = TestScheduler(initialClock: 0)
            let e0 = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .completed(230)])
            let e1 = scheduler.createHotObservable([.next(150, 1), .error(220, testError)])
            let res = scheduler.start { factory(e0, e1) }
            XCTAssertEqual(res.events, [.error(220, testError)])
            XCTAssertEqual(e0.subscriptions, [Subscription(200, 220)])
            XCTAssertEqual(e1.subscriptions, [Subscription(200, 220)])
        }
    }

    func testFirstErrorWins() {
        for factory in factories {
            let scheduler = TestScheduler(initialClock: 0)
            let e0 = scheduler.createHotObservable([.next(150, 1), .error(230, testError1)])
            let e1 = scheduler.createHotObservable([.next(150, 1), .error(220, testError2)])
            let res = scheduler.start { factory(e0, e1) }
            XCTAssertEqual(res.events, [.error(220, testError2)])
            XCTAssertEqual(e0.subscriptions, [Subscription(200, 220)])
            XCTAssertEqual(e1.subscriptions, [Subscription(200, 220)])
        }
    }

    func testErrorAfterValuesEndsTheSequence() {
        for factory in factories {
            let scheduler = TestScheduler(initialClock: 0)
            let e0 = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .error(240, testError), .next(250, 3)])
            let e1 = scheduler.createHotObservable([.next(220, 10), .next(260, 20), .completed(270)])
            let res = scheduler.start { factory(e0, e1) }
            XCTAssertEqual(res.events, [.next(220, 11), .next(230, 12), .error(240, testError)])
            XCTAssertEqual(e1.subscriptions, [Subscription(200, 240)])
        }
    }

    func testThrowingSelectorErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
        let e1 = scheduler.createHotObservable([.next(220, 10), .next(240, 20), .completed(300)])
        var calls = 0
        let res = scheduler.start {
            Observable.combineLatest(e0, e1) { (a: Int, b: Int) throws -> Int in
                calls += 1
                if a == 2 { throw self.testError }
                return a + b
            }
        }
        XCTAssertEqual(res.events, [.next(220, 11), .error(230, testError)])
        XCTAssertEqual(calls, 2, "the selector is not called again after it threw")
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 230)])
    }

    func testDisposeUnsubscribesEverySource() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(210, 1), .next(260, 2)])
        let e1 = scheduler.createHotObservable([.next(220, 10), .next(270, 20)])
        let res = scheduler.start(disposed: 250) { Observable.combineLatest(e0, e1) { $0 + $1 } }
        XCTAssertEqual(res.events, [.next(220, 11)])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 250)])
    }

    // MARK: - Synchronous sources

    func testSynchronousSourcesEmitAtSubscription() {
        // What Action's `enabled` relies on: combineLatest(just(false), just(true)) emits
        // during subscribe.
        var values: [String] = []
        var completed = false
        _ = Observable.combineLatest(Observable.just(false), Observable.just(true)) { !$0 && $1 }
            .subscribe(onNext: { values.append("\($0)") }, onCompleted: { completed = true })
        XCTAssertEqual(values, ["true"])
        XCTAssertTrue(completed)
    }

    func testReentrantPushFromDownstreamDoesNotDeadlock() {
        // Forwarding happens under the sink's lock; a downstream observer that feeds a source
        // again re-enters it on the same thread, which needs the recursive lock.
        let a = CombiningManualSource<Int>()
        let b = CombiningManualSource<Int>()
        var values: [Int] = []
        let subscription = Observable.combineLatest(a.observable, b.observable) { $0 * 10 + $1 }
            .subscribe(onNext: { value in
                values.append(value)
                if value == 11 { b.onNext(2) }
            })
        a.onNext(1)
        b.onNext(1)
        XCTAssertEqual(values, [11, 12])
        subscription.dispose()
        XCTAssertEqual(a.disposeCount, 1)
        XCTAssertEqual(b.disposeCount, 1)
    }

    func testEventsAfterTerminationAreDropped() {
        let a = CombiningManualSource<Int>()
        let b = CombiningManualSource<Int>()
        var events: [String] = []
        _ = Observable.combineLatest(a.observable, b.observable) { $0 + $1 }
            .subscribe(onNext: { events.append("\($0)") }, onError: { _ in events.append("error") }, onCompleted: { events.append("completed") })
        a.onNext(1)
        b.onNext(2)
        a.onError(testError)
        b.onNext(3)
        b.onCompleted()
        XCTAssertEqual(events, ["3", "error"])
        XCTAssertEqual(b.observerCount, 0, "the error disposed every source")
    }

    // MARK: - Arity 3 through 8

    /// Source i (1-based) emits i at 200 + 10i and completes at 400 + i; source 1 emits 100
    /// again at 300.
    private func sources(_ count: Int, _ scheduler: TestScheduler) -> [TestableObservable<Int>] {
        (1...count).map { i in
            var events: [Recorded<Event<Int>>] = [.next(150, 0), .next(200 + 10 * i, i)]
            if i == 1 { events.append(.next(300, 100)) }
            events.append(.completed(400 + i))
            return scheduler.createHotObservable(events)
        }
    }

    private func expected(_ count: Int) -> [Recorded<Event<Int>>] {
        let sum = (1...count).reduce(0, +)
        return [.next(200 + 10 * count, sum), .next(300, sum - 1 + 100), .completed(400 + count)]
    }

    private func check(_ count: Int, _ factory: @escaping ([TestableObservable<Int>]) -> Observable<Int>, file: StaticString = #filePath, line: UInt = #line) {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = sources(count, scheduler)
        let res = scheduler.start { factory(xs) }
        XCTAssertEqual(res.events, expected(count), file: file, line: line)
        for (i, x) in xs.enumerated() {
            XCTAssertEqual(x.subscriptions, [Subscription(200, 401 + i)], file: file, line: line)
        }
    }

    func testArity3() {
        check(3) { s in Observable.combineLatest(s[0], s[1], s[2]) { $0 + $1 + $2 } }
        check(3) { s in Observable.combineLatest(s[0], s[1], s[2]).map { $0 + $1 + $2 } }
    }

    func testArity4() {
        check(4) { s in Observable.combineLatest(s[0], s[1], s[2], s[3]) { $0 + $1 + $2 + $3 } }
        check(4) { s in Observable.combineLatest(s[0], s[1], s[2], s[3]).map { $0 + $1 + $2 + $3 } }
    }

    func testArity5() {
        check(5) { s in Observable.combineLatest(s[0], s[1], s[2], s[3], s[4]) { $0 + $1 + $2 + $3 + $4 } }
        check(5) { s in Observable.combineLatest(s[0], s[1], s[2], s[3], s[4]).map { $0 + $1 + $2 + $3 + $4 } }
    }

    func testArity6() {
        check(6) { s in
            Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5]) { (a: Int, b: Int, c: Int, d: Int, e: Int, f: Int) in a + b + c + d + e + f }
        }
        check(6) { s in
            Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5]).map { (t: (Int, Int, Int, Int, Int, Int)) in t.0 + t.1 + t.2 + t.3 + t.4 + t.5 }
        }
    }

    func testArity7() {
        check(7) { s in
            Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6]) { (a: Int, b: Int, c: Int, d: Int, e: Int, f: Int, g: Int) in
                a + b + c + d + e + f + g
            }
        }
        check(7) { s in
            Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6]).map { (t: (Int, Int, Int, Int, Int, Int, Int)) in
                t.0 + t.1 + t.2 + t.3 + t.4 + t.5 + t.6
            }
        }
    }

    func testArity8() {
        check(8) { s in
            Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) { (a: Int, b: Int, c: Int, d: Int, e: Int, f: Int, g: Int, h: Int) in
                a + b + c + d + e + f + g + h
            }
        }
        check(8) { s in
            Observable.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]).map { (t: (Int, Int, Int, Int, Int, Int, Int, Int)) in
                t.0 + t.1 + t.2 + t.3 + t.4 + t.5 + t.6 + t.7
            }
        }
    }

    func testMixedElementTypesInTheTupleForm() {
        let scheduler = TestScheduler(initialClock: 0)
        let numbers = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        let names = scheduler.createHotObservable([.next(220, "a"), .next(230, "b"), .completed(300)])
        let flags = scheduler.createHotObservable([.next(215, true), .completed(300)])
        let res = scheduler.start {
            Observable.combineLatest(numbers, names, flags).map { "\($0.0)\($0.1)\($0.2)" }
        }
        XCTAssertEqual(res.events, [.next(220, "1atrue"), .next(230, "1btrue"), .completed(300)])
    }

    // MARK: - Collection

    func testCollectionOfNoSourcesEmitsTheSelectorOfNothingThenCompletes() {
        // As RxSwift: the result of `[]`, then completed, both at subscription.
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.combineLatest([Observable<Int>]()) }
        XCTAssertEqual(res.events.map(\.time), [200, 200])
        XCTAssertEqual(res.events.first?.value.element, [])
        XCTAssertTrue(res.events.last?.value.isCompleted == true)
        let resSelector = TestScheduler(initialClock: 0).start {
            Observable.combineLatest([Observable<Int>](), resultSelector: { $0.reduce(7, +) })
        }
        XCTAssertEqual(resSelector.events, [.next(200, 7), .completed(200)])
    }

    func testCollectionOfNoSourcesWithThrowingSelectorErrors() {
        let res = TestScheduler(initialClock: 0).start {
            Observable.combineLatest([Observable<Int>](), resultSelector: { _ -> Int in throw CombiningTestError.error })
        }
        XCTAssertEqual(res.events, [.error(200, testError)])
    }

    func testCollectionEmitsArraysOfTheLatestValues() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(250, 4), .completed(420)])
        let e1 = scheduler.createHotObservable([.next(150, 0), .next(220, 2), .next(240, 5), .completed(410)])
        let e2 = scheduler.createHotObservable([.next(150, 0), .next(230, 3), .next(260, 6), .completed(400)])
        let res = scheduler.start { Observable.combineLatest([e0, e1, e2]).map { $0.map(String.init).joined(separator: ",") } }
        XCTAssertEqual(res.events, [
            .next(230, "1,2,3"),
            .next(240, "1,5,3"),
            .next(250, "4,5,3"),
            .next(260, "4,5,6"),
            .completed(420),
        ])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 420)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 410)])
        XCTAssertEqual(e2.subscriptions, [Subscription(200, 400)])
    }

    func testCollectionWithResultSelector() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(210, 1), .next(250, 4), .completed(420)])
        let e1 = scheduler.createHotObservable([.next(220, 2), .completed(410)])
        let res = scheduler.start { Observable.combineLatest([e0, e1], resultSelector: { $0.reduce(0, +) }) }
        XCTAssertEqual(res.events, [.next(220, 3), .next(250, 6), .completed(420)])
    }

    func testCollectionEmptySourceCompletesAtTheNextElementOfTheLastRunningOne() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.completed(210)] as [Recorded<Event<Int>>])
        let e1 = scheduler.createHotObservable([.next(220, 1), .completed(300)])
        let res = scheduler.start { Observable.combineLatest([e0, e1]).map { $0.count } }
        XCTAssertEqual(res.events, [.completed(220)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 220)])
    }

    func testCollectionErrorEndsItAndUnsubscribesAll() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(210, 1), .error(250, testError)])
        let e1 = scheduler.createHotObservable([.next(220, 2), .completed(410)])
        let e2 = scheduler.createHotObservable([.next(230, 3), .completed(400)])
        let res = scheduler.start { Observable.combineLatest([e0, e1, e2]).map { $0.reduce(0, +) } }
        XCTAssertEqual(res.events, [.next(230, 6), .error(250, testError)])
        for x in [e0, e1, e2] {
            XCTAssertEqual(x.subscriptions, [Subscription(200, 250)])
        }
    }

    func testCollectionThrowingSelectorErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(210, 1), .completed(400)])
        let e1 = scheduler.createHotObservable([.next(220, 2), .completed(400)])
        let res = scheduler.start {
            Observable.combineLatest([e0, e1], resultSelector: { (_: [Int]) throws -> Int in throw self.testError })
        }
        XCTAssertEqual(res.events, [.error(220, testError)])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 220)])
    }
}
