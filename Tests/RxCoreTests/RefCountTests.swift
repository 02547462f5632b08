import RxCore
import RxTesting
import XCTest

final class RefCountTests: XCTestCase {
    func testConnectsOnFirstSubscriberDisconnectsOnLast() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(250, 3), .next(320, 4)])
        var shared: Observable<Int>!
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        var firstSubscription: Disposable?
        var secondSubscription: Disposable?
        scheduler.scheduleAt(100) { shared = xs.publish().refCount() }
        scheduler.scheduleAt(200) { firstSubscription = shared.subscribe(first) }
        scheduler.scheduleAt(215) { secondSubscription = shared.subscribe(second) }
        scheduler.scheduleAt(230) { firstSubscription?.dispose() }
        scheduler.scheduleAt(300) { secondSubscription?.dispose() }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(210, 1), .next(220, 2)])
        XCTAssertEqual(second.events, [.next(220, 2), .next(250, 3)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testReconnectsAfterTermination() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        var shared: Observable<Int>!
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(100) { shared = xs.publish().refCount() }
        scheduler.scheduleAt(200) { _ = shared.subscribe(first) }
        scheduler.scheduleAt(300) { _ = shared.subscribe(second) }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(210, 1), .completed(220)])
        XCTAssertEqual(second.events, [.next(310, 1), .completed(320)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(300, 320)])
    }

    func testDisposingAnEndedSubscriptionDoesNotDisconnectTheNextConnection() {
        let source = SubjectManualSource<Int>()
        let shared = source.observable.publish().refCount()
        let ended = shared.subscribe(onNext: { _ in })
        source.send(.completed)
        let recorder = SubjectEventRecorder<Int>()
        _ = shared.subscribe(recorder)
        XCTAssertEqual(source.subscribeCount, 2)
        ended.dispose()
        source.send(.next(1))
        XCTAssertEqual(recorder.events, [.next(1)])
        XCTAssertEqual(source.disposeCount, 1, "only the first, completed, subscription was disposed")
    }

    func testDisposingTwiceCountsOnce() {
        let source = SubjectManualSource<Int>()
        let shared = source.observable.publish().refCount()
        let first = shared.subscribe(onNext: { _ in })
        let second = shared.subscribe(onNext: { _ in })
        first.dispose()
        first.dispose()
        XCTAssertEqual(source.disposeCount, 0, "the second subscriber still holds the connection")
        second.dispose()
        XCTAssertEqual(source.disposeCount, 1)
    }
}
