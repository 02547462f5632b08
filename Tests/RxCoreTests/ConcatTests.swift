import RxCore
import RxTesting
import XCTest

final class ConcatTests: XCTestCase {
    private let testError = CombiningTestError.error

    func testSubscribesEachSourceWhenThePreviousCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1 = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
        let ys2 = scheduler.createColdObservable([.next(10, 3), .completed(20)])
        let ys3 = scheduler.createColdObservable([.next(5, 4), .completed(5)])
        let res = scheduler.start { Observable.concat(ys1.asObservable(), ys2.asObservable(), ys3.asObservable()) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .next(240, 3), .next(255, 4), .completed(255)])
        XCTAssertEqual(ys1.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys2.subscriptions, [Subscription(230, 250)])
        XCTAssertEqual(ys3.subscriptions, [Subscription(250, 255)])
    }

    func testErrorStopsTheChain() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1 = scheduler.createColdObservable([.next(10, 1), .error(20, testError)])
        let ys2 = scheduler.createColdObservable([.next(10, 3), .completed(20)])
        let res = scheduler.start { Observable.concat([ys1.asObservable(), ys2.asObservable()]) }
        XCTAssertEqual(res.events, [.next(210, 1), .error(220, testError)])
        XCTAssertEqual(ys1.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(ys2.subscriptions, [])
    }

    func testInstanceForm() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1 = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let ys2 = scheduler.createColdObservable([.next(10, 2), .completed(20)])
        let res = scheduler.start { ys1.concat(ys2) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 2), .completed(240)])
        XCTAssertEqual(ys2.subscriptions, [Subscription(220, 240)])
    }

    func testNoSourcesCompletesAtOnce() {
        let res = TestScheduler(initialClock: 0).start { Observable<Int>.concat([Observable<Int>]()) }
        XCTAssertEqual(res.events, [.completed(200)])
    }

    func testDisposeUnsubscribesTheCurrentSourceAndStops() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1 = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let ys2 = scheduler.createColdObservable([.next(10, 2), .next(40, 3), .completed(50)])
        let ys3 = scheduler.createColdObservable([.next(10, 4), .completed(20)])
        let res = scheduler.start(disposed: 240) { Observable.concat([ys1.asObservable(), ys2.asObservable(), ys3.asObservable()]) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 2)])
        XCTAssertEqual(ys2.subscriptions, [Subscription(220, 240)])
        XCTAssertEqual(ys3.subscriptions, [])
    }

    func testSequenceIsIteratedLazily() {
        var pulled = 0
        let sources = CombiningManualSource<Int>()
        let lazy = sequence(state: 0) { (count: inout Int) -> Observable<Int>? in
            count += 1
            pulled += 1
            return count <= 3 ? sources.observable : nil
        }
        var values: [Int] = []
        var completed = false
        _ = Observable.concat(lazy).subscribe(onNext: { values.append($0) }, onCompleted: { completed = true })
        XCTAssertEqual(pulled, 1)
        sources.onNext(1)
        sources.onCompleted()
        XCTAssertEqual(pulled, 2)
        sources.onNext(2)
        sources.onCompleted()
        sources.onNext(3)
        sources.onCompleted()
        XCTAssertEqual(pulled, 4)
        XCTAssertEqual(values, [1, 2, 3])
        XCTAssertTrue(completed)
    }

    func testLongChainOfSynchronousSourcesDoesNotGrowTheStack() {
        // Each source completes while being subscribed to; without the trampoline this would
        // recurse once per source and overflow the stack.
        let count = 100_000
        var sum = 0
        var completed = false
        _ = Observable.concat((0..<count).map { Observable.just($0) })
            .subscribe(onNext: { sum += $0 }, onCompleted: { completed = true })
        XCTAssertEqual(sum, count * (count - 1) / 2)
        XCTAssertTrue(completed)
    }

    // MARK: - concat() of an observable of observables

    func testConcatOfObservables() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys1 = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let ys2 = scheduler.createColdObservable([.next(10, 2), .completed(20)])
        let xs = scheduler.createHotObservable([.next(210, ys1), .next(215, ys2), .completed(220)])
        let res = scheduler.start { xs.concat() }
        XCTAssertEqual(res.events, [.next(220, 1), .next(240, 2), .completed(250)])
        XCTAssertEqual(ys1.subscriptions, [Subscription(210, 230)])
        XCTAssertEqual(ys2.subscriptions, [Subscription(230, 250)])
    }

    // MARK: - concatMap

    func testConcatMapMapsOnArrivalAndSubscribesInOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = (0...2).map { i in scheduler.createColdObservable([.next(5, 10 * i), .next(15, 10 * i + 1), .completed(20)]) }
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        var mappedAt: [Int] = []
        let res = scheduler.start {
            xs.concatMap { (value: Int) -> TestableObservable<Int> in
                mappedAt.append(scheduler.clock)
                return ys[value]
            }
        }
        XCTAssertEqual(res.events, [.next(215, 10), .next(225, 11), .next(235, 20), .next(245, 21), .completed(250)])
        XCTAssertEqual(mappedAt, [210, 220])
        XCTAssertEqual(ys[1].subscriptions, [Subscription(210, 230)])
        XCTAssertEqual(ys[2].subscriptions, [Subscription(230, 250)])
    }

    func testConcatMapThrowingSelectorEndsIt() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = scheduler.createColdObservable([.next(5, 1), .completed(100)])
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let res = scheduler.start {
            xs.concatMap { (value: Int) throws -> TestableObservable<Int> in
                if value == 2 { throw self.testError }
                return ys
            }
        }
        XCTAssertEqual(res.events, [.next(215, 1), .error(220, testError)])
        XCTAssertEqual(ys.subscriptions, [Subscription(210, 220)])
    }

    func testConcatMapInnerErrorEndsIt() {
        let scheduler = TestScheduler(initialClock: 0)
        let failing = scheduler.createColdObservable([.next(5, 1), .error(10, testError)])
        let next = scheduler.createColdObservable([.next(5, 2), .completed(10)])
        let xs = scheduler.createHotObservable([.next(210, 1), .next(212, 2), .completed(300)])
        let res = scheduler.start { xs.concatMap { $0 == 1 ? failing : next } }
        XCTAssertEqual(res.events, [.next(215, 1), .error(220, testError)])
        XCTAssertEqual(next.subscriptions, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    // MARK: - Nested concats

    /// `[source(i), [source(i + 1), [...].concat()].concat()].concat()`, `levels` deep.
    private func nested(_ index: Int, levels: Int, lazySequence: Bool) -> Observable<Int> {
        // Lazy: each level is made only when the previous one's sources are iterated.
        let parts = [0, 1].lazy.map { part -> Observable<Int> in
            if part == 0 { return Observable.just(index) }
            return index + 1 < levels ? self.nested(index + 1, levels: levels, lazySequence: lazySequence) : Observable.empty()
        }
        return lazySequence ? Observable.concat(AnySequence(parts)) : Observable.concat(parts)
    }

    func testDeeplyNestedConcatsAreIteratedInPlace() {
        // Each nested concat's sources are iterated by the outer sink, not subscribed to
        // through another sink per level: 10 000 levels deliver in order, at once.
        XCTAssertEqual(try collect(nested(0, levels: 10_000, lazySequence: false)), Array(0..<10_000))
        XCTAssertEqual(try collect(nested(0, levels: 2_000, lazySequence: true)), Array(0..<2_000))
    }

    #if TRACE_RESOURCES
    func testNestedConcatOfACollectionIsATailCall() {
        maxTailRecursiveSinkStackSize = 0
        _ = try? collect(nested(0, levels: 1_000, lazySequence: false))
        XCTAssertEqual(maxTailRecursiveSinkStackSize, 1)
        maxTailRecursiveSinkStackSize = 0
        _ = try? collect(nested(0, levels: 1_000, lazySequence: true))
        XCTAssertGreaterThan(maxTailRecursiveSinkStackSize, 900)
    }
    #endif
}
