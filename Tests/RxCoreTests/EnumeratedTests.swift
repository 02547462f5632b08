import RxCore
import RxTesting
import XCTest

final class EnumeratedTests: XCTestCase {
    func testIndexesCountFromZero() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, "x"), .next(210, "a"), .next(220, "b"), .next(230, "c"), .completed(250)])
        let res = scheduler.start { xs.enumerated().map { "\($0.index):\($0.element)" } }
        XCTAssertEqual(res.events, [.next(210, "0:a"), .next(220, "1:b"), .next(230, "2:c"), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testErrorAndDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, "a"), .error(220, testError)])
        let res = scheduler.start { xs.enumerated().map { $0.index } }
        XCTAssertEqual(res.events, [.next(210, 0), .error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let ys = scheduler2.createHotObservable([.next(210, "a"), .next(230, "b")])
        let res2 = scheduler2.start(disposed: 220) { ys.enumerated().map { $0.index } }
        XCTAssertEqual(res2.events, [.next(210, 0)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 220)])
    }

    func testEachSubscriptionCountsAfresh() {
        let source = Observable.of("a", "b").enumerated().map { $0.index }
        XCTAssertEqual(try collect(source), [0, 1])
        XCTAssertEqual(try collect(source), [0, 1])
    }
}

/// The elements of a synchronous sequence; throws its error.
func collect<Element>(_ source: Observable<Element>) throws -> [Element] {
    var elements: [Element] = []
    var failure: Error?
    _ = source.subscribe(onNext: { elements.append($0) }, onError: { failure = $0 })
    if let failure { throw failure }
    return elements
}
