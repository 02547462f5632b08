@testable import RxCore
import RxTesting
import XCTest

/// flatMapLatest and switchLatest (they share SwitchSink).
final class FlatMapLatestTests: XCTestCase {
    private let testError = CombiningTestError.error

    /// Inner i emits 10i at +10, 10i + 1 at +20, 10i + 2 at +50 and completes at +100.
    private func inners(_ scheduler: TestScheduler, _ count: Int) -> [TestableObservable<Int>] {
        (0...count).map { i in
            scheduler.createColdObservable([.next(10, 10 * i), .next(20, 10 * i + 1), .next(50, 10 * i + 2), .completed(100)])
        }
    }

    func testDisposesThePreviousInnerOnEachElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = inners(scheduler, 3)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .next(300, 3), .completed(380)])
        let res = scheduler.start { xs.flatMapLatest { ys[$0] } }
        XCTAssertEqual(res.events, [
            .next(220, 10), .next(230, 11),
            .next(250, 20), .next(260, 21), .next(290, 22),
            .next(310, 30), .next(320, 31), .next(350, 32),
            .completed(400),
        ])
        XCTAssertEqual(ys[1].subscriptions, [Subscription(210, 240)])
        XCTAssertEqual(ys[2].subscriptions, [Subscription(240, 300)])
        XCTAssertEqual(ys[3].subscriptions, [Subscription(300, 400)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 380)])
    }

    func testCompletesWithTheOuterWhenTheLatestInnerIsDone() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = inners(scheduler, 1)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(500)])
        let res = scheduler.start { xs.flatMapLatest { ys[$0] } }
        XCTAssertEqual(res.events, [.next(220, 10), .next(230, 11), .next(260, 12), .completed(500)])
        XCTAssertEqual(ys[1].subscriptions, [Subscription(210, 310)])
    }

    func testOuterCompletingWithoutElementsCompletesAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(250)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.flatMapLatest { _ in Observable.just(1) } }
        XCTAssertEqual(res.events, [.completed(250)])
    }

    func testErrorOfTheCurrentInnerEndsIt() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = inners(scheduler, 1)
        let failing = scheduler.createColdObservable([.next(5, 99), .error(15, testError)])
        let xs = scheduler.createHotObservable([.next(210, 1), .next(225, 2), .completed(500)])
        let res = scheduler.start { xs.flatMapLatest { $0 == 1 ? ys[1] : failing } }
        XCTAssertEqual(res.events, [.next(220, 10), .next(230, 99), .error(240, testError)])
        XCTAssertEqual(ys[1].subscriptions, [Subscription(210, 225)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240)])
    }

    func testOuterErrorEndsItAndDisposesTheInner() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = inners(scheduler, 1)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(225, testError)])
        let res = scheduler.start { xs.flatMapLatest { ys[$0] } }
        XCTAssertEqual(res.events, [.next(220, 10), .error(225, testError)])
        XCTAssertEqual(ys[1].subscriptions, [Subscription(210, 225)])
    }

    func testThrowingSelectorEndsIt() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = inners(scheduler, 1)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(225, 2), .completed(500)])
        let res = scheduler.start {
            xs.flatMapLatest { (value: Int) throws -> TestableObservable<Int> in
                if value == 2 { throw self.testError }
                return ys[value]
            }
        }
        XCTAssertEqual(res.events, [.next(220, 10), .error(225, testError)])
        XCTAssertEqual(ys[1].subscriptions, [Subscription(210, 225)])
    }

    func testStaleInnerEventsAreIgnored() {
        // An inner source that keeps calling its observer after being disposed must not leak
        // through once a newer inner sequence has arrived.
        let stale = LeakyNodeSource<Int>()
        var values: [Int] = []
        let outer = CombiningManualSource<Int>()
        let subscription = outer.observable
            .flatMapLatest { $0 == 1 ? stale.asObservable() : Observable.just(100) }
            .subscribe(onNext: { values.append($0) }, onError: { _ in values.append(-1) }, onCompleted: { values.append(-2) })
        outer.onNext(1)
        stale.push(1)
        outer.onNext(2)
        stale.push(2)
        stale.fail(testError)
        XCTAssertEqual(values, [1, 100])
        XCTAssertTrue(stale.disposed)
        subscription.dispose()
    }

    // MARK: - switchLatest

    func testSwitchLatest() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = inners(scheduler, 2)
        let xs = scheduler.createHotObservable([.next(210, ys[1]), .next(240, ys[2]), .completed(250)])
        let res = scheduler.start { xs.switchLatest() }
        XCTAssertEqual(res.events, [.next(220, 10), .next(230, 11), .next(250, 20), .next(260, 21), .next(290, 22), .completed(340)])
        XCTAssertEqual(ys[1].subscriptions, [Subscription(210, 240)])
        XCTAssertEqual(ys[2].subscriptions, [Subscription(240, 340)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testSwitchLatestDispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = inners(scheduler, 1)
        let xs = scheduler.createHotObservable([.next(210, ys[1]), .completed(500)])
        let res = scheduler.start(disposed: 235) { xs.switchLatest() }
        XCTAssertEqual(res.events, [.next(220, 10), .next(230, 11)])
        XCTAssertEqual(ys[1].subscriptions, [Subscription(210, 235)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 235)])
    }
}

/// Keeps delivering to its observer node after being disposed, like a misbehaving source
/// racing its disposal.
private final class LeakyNodeSource<Element>: Observable<Element> {
    private var node: ObserverNode<Element>?
    private(set) var disposed = false

    override func subscribe(node observer: ObserverNode<Element>) -> Disposable {
        node = observer
        return Disposables.create { self.disposed = true }
    }

    func push(_ element: Element) { node?.onNext(element) }
    func fail(_ error: Error) { node?.onError(error) }
}
