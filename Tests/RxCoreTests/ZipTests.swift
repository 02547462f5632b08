import RxCore
import RxTesting
import XCTest

final class ZipTests: XCTestCase {
    private let testError = CombiningTestError.error
    private let testError1 = CombiningTestError.error1
    private let testError2 = CombiningTestError.error2

    /// Both public forms of the 2-source overload, so each scenario checks both.
    private let factories: [(TestableObservable<Int>, TestableObservable<Int>) -> Observable<Int>] = [
        { e0, e1 in Observable.zip(e0, e1) { $0 + $1 } },
        { e0, e1 in Observable.zip(e0, e1).map { $0 + $1 } },
    ]

    // MARK: - Pairing

    func testPairsElementsByIndexBufferingTheFasterSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .next(220, 2), .next(230, 3), .completed(400)])
        let e1 = scheduler.createHotObservable([.next(150, "x"), .next(240, "a"), .next(250, "b"), .completed(500)])
        let res = scheduler.start { Observable.zip(e0, e1).map { "\($0)\($1)" } }
        XCTAssertEqual(res.events, [.next(240, "1a"), .next(250, "2b"), .completed(500)])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 400)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 500)])
    }

    func testNonEmptyNonEmpty() {
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

    // MARK: - Completion (fixed arities: only when every source has completed)

    func testNeverEmptyNeverCompletes() {
        for factory in factories {
            let scheduler = TestScheduler(initialClock: 0)
            let n = scheduler.createHotObservable([.next(150, 1)])
            let e = scheduler.createHotObservable([.next(150, 1), .completed(210)])
            let res = scheduler.start { factory(n, e) }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(n.subscriptions, [Subscription(200, 1000)])
            XCTAssertEqual(e.subscriptions, [Subscription(200, 210)])
        }
    }

    func testEmptyNonEmptyCompletesWhenBothComplete() {
        for factory in factories {
            let scheduler = TestScheduler(initialClock: 0)
            let e = scheduler.createHotObservable([.next(150, 1), .completed(210)])
            let o = scheduler.createHotObservable([.next(150, 1), .next(215, 2), .completed(220)])
            let res = scheduler.start { factory(e, o) }
            XCTAssertEqual(res.events, [.completed(220)])
            XCTAssertEqual(e.subscriptions, [Subscription(200, 210)])
            XCTAssertEqual(o.subscriptions, [Subscription(200, 220)])
        }
    }

    func testNeverNonEmptyNeverEmits() {
        for factory in factories {
            let scheduler = TestScheduler(initialClock: 0)
            let n = scheduler.createHotObservable([.next(150, 1)])
            let o = scheduler.createHotObservable([.next(150, 1), .next(215, 2), .completed(220)])
            let res = scheduler.start { factory(n, o) }
            XCTAssertEqual(res.events, [])
            XCTAssertEqual(o.subscriptions, [Subscription(200, 220)])
            XCTAssertEqual(n.subscriptions, [Subscription(200, 1000)])
        }
    }

    func testLeftCompletesFirst() {
        for factory in factories {
            let scheduler = TestScheduler(initialClock: 0)
            let o1 = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .completed(220)])
            let o2 = scheduler.createHotObservable([.next(150, 1), .next(215, 4), .completed(225)])
            let res = scheduler.start { factory(o1, o2) }
            XCTAssertEqual(res.events, [.next(215, 2 + 4), .completed(225)])
            XCTAssertEqual(o1.subscriptions, [Subscription(200, 220)])
            XCTAssertEqual(o2.subscriptions, [Subscription(200, 225)])
        }
    }

    func testLeftoverElementsOfACompletedSourceArePairedLater() {
        let scheduler = TestScheduler(initialClock: 0)
        let o1 = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let o2 = scheduler.createHotObservable([.next(240, 10), .next(250, 20), .next(260, 30), .completed(270)])
        let res = scheduler.start { Observable.zip(o1, o2) { $0 + $1 } }
        XCTAssertEqual(res.events, [.next(240, 11), .next(250, 22), .completed(270)])
    }

    // MARK: - Errors

    func testEmptyErrorForwardsTheError() {
        for factory in factories {
            let scheduler = TestScheduler(initialClock: 0)
            let o1 = scheduler.createHotObservable([.next(150, 1), .completed(230)])
            let o2 = scheduler.createHotObservable([.next(150, 1), .error(220, testError)])
            let res = scheduler.start { factory(o1, o2) }
            XCTAssertEqual(res.events, [.error(220, testError)])
            XCTAssertEqual(o1.subscriptions, [Subscription(200, 220)])
            XCTAssertEqual(o2.subscriptions, [Subscription(200, 220)])
        }
    }

    func testNeverErrorForwardsTheError() {
        for factory in factories {
            let scheduler = TestScheduler(initialClock: 0)
            let o1 = scheduler.createHotObservable([.next(150, 1)])
            let o2 = scheduler.createHotObservable([.next(150, 1), .error(220, testError)])
            let res = scheduler.start { factory(o2, o1) }
            XCTAssertEqual(res.events, [.error(220, testError)])
            XCTAssertEqual(o1.subscriptions, [Subscription(200, 220)])
            XCTAssertEqual(o2.subscriptions, [Subscription(200, 220)])
        }
    }

    func testFirstErrorWins() {
        for factory in factories {
            let scheduler = TestScheduler(initialClock: 0)
            let o1 = scheduler.createHotObservable([.next(150, 1), .error(230, testError1)])
            let o2 = scheduler.createHotObservable([.next(150, 1), .error(220, testError2)])
            let res = scheduler.start { factory(o2, o1) }
            XCTAssertEqual(res.events, [.error(220, testError2)])
            XCTAssertEqual(o1.subscriptions, [Subscription(200, 220)])
            XCTAssertEqual(o2.subscriptions, [Subscription(200, 220)])
        }
    }

    func testSomeErrorDropsTheBufferedElement() {
        for factory in factories {
            let scheduler = TestScheduler(initialClock: 0)
            let o1 = scheduler.createHotObservable([.next(150, 1), .next(215, 2), .completed(230)])
            let o2 = scheduler.createHotObservable([.next(150, 1), .error(220, testError1)])
            let res = scheduler.start { factory(o1, o2) }
            XCTAssertEqual(res.events, [.error(220, testError1)])
        }
    }

    func testThrowingSelectorErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let o1 = scheduler.createHotObservable([.next(150, 1), .next(220, 2), .completed(220)])
        let o2 = scheduler.createHotObservable([.next(150, 1), .next(210, 4)])
        let res = scheduler.start { Observable.zip(o1, o2) { (_: Int, _: Int) throws -> Int in throw self.testError } }
        XCTAssertEqual(res.events, [.error(220, testError)])
        XCTAssertEqual(o1.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(o2.subscriptions, [Subscription(200, 220)])
    }

    func testDisposeUnsubscribesEverySource() {
        let scheduler = TestScheduler(initialClock: 0)
        let o1 = scheduler.createHotObservable([.next(210, 1), .next(260, 2)])
        let o2 = scheduler.createHotObservable([.next(220, 10), .next(270, 20)])
        let res = scheduler.start(disposed: 250) { Observable.zip(o1, o2) { $0 + $1 } }
        XCTAssertEqual(res.events, [.next(220, 11)])
        XCTAssertEqual(o1.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(o2.subscriptions, [Subscription(200, 250)])
    }

    func testSynchronousSources() {
        var values: [Int] = []
        var completed = false
        _ = Observable.zip(Observable.just(1), Observable.just(2))
            .subscribe(onNext: { values.append($0 + $1) }, onCompleted: { completed = true })
        XCTAssertEqual(values, [3])
        XCTAssertTrue(completed)
    }

    // MARK: - Arity 3 through 8

    /// Source i (1-based) emits i at 200 + 10i, 10i at 300 + i, completes at 400 + i.
    private func check(_ count: Int, _ factory: @escaping ([TestableObservable<Int>]) -> Observable<Int>, file: StaticString = #filePath, line: UInt = #line) {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = (1...count).map { i in
            scheduler.createHotObservable([.next(150, 0), .next(200 + 10 * i, i), .next(300 + i, 10 * i), .completed(400 + i)])
        }
        let res = scheduler.start { factory(xs) }
        let sum = (1...count).reduce(0, +)
        XCTAssertEqual(res.events, [.next(200 + 10 * count, sum), .next(300 + count, 10 * sum), .completed(400 + count)], file: file, line: line)
        for (i, x) in xs.enumerated() {
            XCTAssertEqual(x.subscriptions, [Subscription(200, 401 + i)], file: file, line: line)
        }
    }

    func testArity3() {
        check(3) { s in Observable.zip(s[0], s[1], s[2]) { $0 + $1 + $2 } }
        check(3) { s in Observable.zip(s[0], s[1], s[2]).map { $0 + $1 + $2 } }
    }

    func testArity4() {
        check(4) { s in Observable.zip(s[0], s[1], s[2], s[3]) { $0 + $1 + $2 + $3 } }
        check(4) { s in Observable.zip(s[0], s[1], s[2], s[3]).map { $0 + $1 + $2 + $3 } }
    }

    func testArity5() {
        check(5) { s in Observable.zip(s[0], s[1], s[2], s[3], s[4]) { $0 + $1 + $2 + $3 + $4 } }
        check(5) { s in Observable.zip(s[0], s[1], s[2], s[3], s[4]).map { $0 + $1 + $2 + $3 + $4 } }
    }

    func testArity6() {
        check(6) { s in Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5]) { (a: Int, b: Int, c: Int, d: Int, e: Int, f: Int) in a + b + c + d + e + f } }
        check(6) { s in
            Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5]).map { (t: (Int, Int, Int, Int, Int, Int)) in t.0 + t.1 + t.2 + t.3 + t.4 + t.5 }
        }
    }

    func testArity7() {
        check(7) { s in
            Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6]) { (a: Int, b: Int, c: Int, d: Int, e: Int, f: Int, g: Int) in a + b + c + d + e + f + g }
        }
        check(7) { s in
            Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6]).map { (t: (Int, Int, Int, Int, Int, Int, Int)) in t.0 + t.1 + t.2 + t.3 + t.4 + t.5 + t.6 }
        }
    }

    func testArity8() {
        check(8) { s in
            Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) { (a: Int, b: Int, c: Int, d: Int, e: Int, f: Int, g: Int, h: Int) in
                a + b + c + d + e + f + g + h
            }
        }
        check(8) { s in
            Observable.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]).map { (t: (Int, Int, Int, Int, Int, Int, Int, Int)) in
                t.0 + t.1 + t.2 + t.3 + t.4 + t.5 + t.6 + t.7
            }
        }
    }

    // MARK: - Collection

    func testCollectionOfNoSourcesCompletesAtOnce() {
        let res = TestScheduler(initialClock: 0).start { Observable.zip([Observable<Int>](), resultSelector: { $0.reduce(0, +) }) }
        XCTAssertEqual(res.events, [.completed(200)])
        let arrays = TestScheduler(initialClock: 0).start { Observable.zip([Observable<Int>]()).map(\.count) }
        XCTAssertEqual(arrays.events, [.completed(200)])
    }

    func testCollectionSymmetric() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(210, 1), .next(250, 4), .completed(420)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .next(220, 2), .next(240, 5), .completed(410)])
        let e2 = scheduler.createHotObservable([.next(150, 1), .next(230, 3), .next(260, 6), .completed(400)])
        let res = scheduler.start { Observable.zip([e0, e1, e2]).map { $0.map(String.init).joined() } }
        XCTAssertEqual(res.events, [.next(230, "123"), .next(260, "456"), .completed(420)])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 420)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 410)])
        XCTAssertEqual(e2.subscriptions, [Subscription(200, 400)])
    }

    func testCollectionCompletesWhenAnElementCannotBePairedAndTheOthersAreDone() {
        // RxSwift's collection zip (unlike its fixed arities) completes at 310: e1's element
        // can never be paired because e0 and e2 have completed.
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(210, 1), .next(250, 4), .completed(270)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .next(220, 2), .next(240, 5), .next(290, 7), .next(310, 9), .completed(410)])
        let e2 = scheduler.createHotObservable([.next(150, 1), .next(230, 3), .next(260, 6), .next(280, 8), .completed(300)])
        let res = scheduler.start { Observable.zip([e0, e1, e2], resultSelector: { $0.map(String.init).joined() }) }
        XCTAssertEqual(res.events, [.next(230, "123"), .next(260, "456"), .completed(310)])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 270)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 310)])
        XCTAssertEqual(e2.subscriptions, [Subscription(200, 300)])
    }

    func testCollectionError() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(210, 1), .error(250, testError)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .next(220, 2), .next(240, 5), .completed(410)])
        let e2 = scheduler.createHotObservable([.next(150, 1), .next(230, 3), .next(260, 6), .completed(400)])
        let res = scheduler.start { Observable.zip([e0, e1, e2]).map { $0.reduce(0, +) } }
        XCTAssertEqual(res.events, [.next(230, 6), .error(250, testError)])
        for x in [e0, e1, e2] {
            XCTAssertEqual(x.subscriptions, [Subscription(200, 250)])
        }
    }

    func testCollectionThrowingSelector() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(210, 1), .completed(400)])
        let e1 = scheduler.createHotObservable([.next(220, 2), .completed(400)])
        let res = scheduler.start { Observable.zip([e0, e1], resultSelector: { (_: [Int]) throws -> Int in throw self.testError }) }
        XCTAssertEqual(res.events, [.error(220, testError)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 220)])
    }
}
