import RxCore
import RxTesting
import XCTest

final class CatchSequenceTests: XCTestCase {
    func testEachErrorMovesToTheNextSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let x1 = scheduler.createColdObservable([.next(10, 1), .error(20, testError)])
        let x2 = scheduler.createColdObservable([.next(10, 2), .error(20, testError2)])
        let x3 = scheduler.createColdObservable([.next(10, 3), .completed(20)])
        let res = scheduler.start { Observable.catch(sequence: [x1, x2, x3].map { $0.asObservable() }) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(230, 2), .next(250, 3), .completed(260)])
        XCTAssertEqual(x1.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(x2.subscriptions, [Subscription(220, 240)])
        XCTAssertEqual(x3.subscriptions, [Subscription(240, 260)])
    }

    func testCompletionStopsTheSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let x1 = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let x2 = scheduler.createColdObservable([.next(10, 2)])
        let res = scheduler.start { Observable.catch(sequence: [x1, x2].map { $0.asObservable() }) }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(220)])
        XCTAssertEqual(x2.subscriptions, [])
    }

    func testTheLastErrorIsForwarded() {
        let scheduler = TestScheduler(initialClock: 0)
        let x1 = scheduler.createColdObservable([.error(10, testError)] as [Recorded<Event<Int>>])
        let x2 = scheduler.createColdObservable([.error(10, testError2)] as [Recorded<Event<Int>>])
        let res = scheduler.start { Observable.catch(sequence: [x1, x2].map { $0.asObservable() }) }
        XCTAssertEqual(res.events, [.error(220, testError2)])
    }

    func testEmptySequenceCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        XCTAssertEqual(scheduler.start { Observable<Int>.catch(sequence: []) }.events, [.completed(200)])
    }

    func testDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let x1 = scheduler.createColdObservable([.error(10, testError)] as [Recorded<Event<Int>>])
        let x2 = scheduler.createColdObservable([.next(20, 2), .next(40, 3)])
        let res = scheduler.start(disposed: 240) { Observable.catch(sequence: [x1, x2].map { $0.asObservable() }) }
        XCTAssertEqual(res.events, [.next(230, 2)])
        XCTAssertEqual(x2.subscriptions, [Subscription(210, 240)])
    }

    func testManySynchronousFailuresDoNotRecurse() {
        // 100 000 sequences failing while subscribed: a loop, not a recursion.
        let failing = (0..<100_000).lazy.map { _ in Observable<Int>.error(testError) }
        var events: [String] = []
        _ = Observable.catch(sequence: failing).concat(Observable.just(7))
            .subscribe(onNext: { events.append("\($0)") }, onError: { events.append("\($0)") })
        XCTAssertEqual(events, ["TestError(1)"])
        var completed = false
        _ = Observable.catch(sequence: failing.map { $0 } + [Observable.just(7)])
            .subscribe(onNext: { events.append("\($0)") }, onCompleted: { completed = true })
        XCTAssertEqual(events, ["TestError(1)", "7"])
        XCTAssertTrue(completed)
    }

    func testInfiniteSequenceIsReadLazily() {
        var made = 0
        let sources = AnyIterator<Observable<Int>> {
            made += 1
            return made < 3 ? Observable.error(testError) : Observable.just(made)
        }
        XCTAssertEqual(try collect(Observable.catch(sequence: AnySequence { sources })), [3])
        XCTAssertEqual(made, 3)
    }
}
