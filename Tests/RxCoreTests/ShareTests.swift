import RxCore
import RxTesting
import XCTest

final class ShareTests: XCTestCase {
    // MARK: .whileConnected (default)

    func testWhileConnectedFirstSubscriberConnectsLastDisposeDisconnects() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .next(30, 3), .next(150, 4)])
        var shared: Observable<Int>!
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        var firstSubscription: Disposable?
        var secondSubscription: Disposable?
        scheduler.scheduleAt(100) { shared = xs.share() }
        scheduler.scheduleAt(200) { firstSubscription = shared.subscribe(first) }
        scheduler.scheduleAt(215) { secondSubscription = shared.subscribe(second) }
        scheduler.scheduleAt(300) { firstSubscription?.dispose() }
        scheduler.scheduleAt(330) { secondSubscription?.dispose() }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(210, 1), .next(220, 2), .next(230, 3)])
        XCTAssertEqual(second.events, [.next(220, 2), .next(230, 3)], "no replay with replay: 0")
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 330)], "one source subscription, ended by the last dispose")
    }

    func testWhileConnectedSubscribingAfterDisconnectConnectsAgain() {
        let source = SubjectManualSource<Int>()
        let shared = source.observable.share()
        let first = shared.subscribe(onNext: { _ in })
        first.dispose()
        XCTAssertEqual(source.subscribeCount, 1)
        XCTAssertEqual(source.disposeCount, 1)
        let recorder = SubjectEventRecorder<Int>()
        _ = shared.subscribe(recorder)
        XCTAssertEqual(source.subscribeCount, 2)
        source.send(.next(5))
        XCTAssertEqual(recorder.events, [.next(5)])
    }

    func testWhileConnectedAfterTerminationNextSubscriberResubscribesFresh() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        var shared: Observable<Int>!
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(100) { shared = xs.share() }
        scheduler.scheduleAt(200) { _ = shared.subscribe(first) }
        scheduler.scheduleAt(300) { _ = shared.subscribe(second) }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(210, 1), .completed(220)])
        XCTAssertEqual(second.events, [.next(310, 1), .completed(320)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220), Subscription(300, 320)])
    }

    func testWhileConnectedErrorReachesEverySubscriber() {
        let source = SubjectManualSource<Int>()
        let shared = source.observable.share()
        let first = SubjectEventRecorder<Int>()
        let second = SubjectEventRecorder<Int>()
        _ = shared.subscribe(first)
        _ = shared.subscribe(second)
        source.send(.next(1))
        source.send(.error(SubjectTestError(1)))
        XCTAssertEqual(first.events, [.next(1), .error(SubjectTestError(1))])
        XCTAssertEqual(second.events, [.next(1), .error(SubjectTestError(1))])
        XCTAssertEqual(source.subscribeCount, 1)
    }

    func testShareReplay1GivesNewSubscribersLatestElementSynchronously() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(240, 3)])
        var shared: Observable<Int>!
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(100) { shared = xs.share(replay: 1) }
        scheduler.scheduleAt(200) { _ = shared.subscribe(first) }
        scheduler.scheduleAt(230) { _ = shared.subscribe(second) }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(210, 1), .next(220, 2), .next(240, 3)])
        XCTAssertEqual(second.events, [.next(230, 2), .next(240, 3)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200)])
    }

    func testShareReplay1ForgetsElementAfterDisconnect() {
        let source = SubjectManualSource<Int>()
        let shared = source.observable.share(replay: 1)
        let first = shared.subscribe(onNext: { _ in })
        source.send(.next(1))
        first.dispose()
        XCTAssertEqual(source.disposeCount, 1, "the last dispose disconnects")
        let recorder = SubjectEventRecorder<Int>()
        _ = shared.subscribe(recorder)
        XCTAssertEqual(recorder.events, [], "a new connection starts with no element")
        XCTAssertEqual(source.subscribeCount, 2)
    }

    func testShareReplay1AfterTerminationResubscribesFresh() {
        var subscriptions = 0
        let source = Observable<Int>.create { observer in
            subscriptions += 1
            observer.onNext(subscriptions)
            observer.onCompleted()
            return Disposables.create()
        }
        let shared = source.share(replay: 1)
        let first = SubjectEventRecorder<Int>()
        let second = SubjectEventRecorder<Int>()
        _ = shared.subscribe(first)
        _ = shared.subscribe(second)
        XCTAssertEqual(first.events, [.next(1), .completed])
        XCTAssertEqual(second.events, [.next(2), .completed], "no replay from the ended connection")
        XCTAssertEqual(subscriptions, 2)
    }

    func testShareReplay1ElementSentWhileJoiningFollowsReplayedOne() {
        let source = SubjectManualSource<Int>()
        let shared = source.observable.share(replay: 1)
        _ = shared.subscribe(onNext: { _ in })
        source.send(.next(1))
        let recorder = SubjectEventRecorder<Int>()
        recorder.onEvent = { event in
            if event.element == 1 { source.send(.next(2)) }
        }
        _ = shared.subscribe(recorder)
        source.send(.next(3))
        XCTAssertEqual(recorder.events, [.next(1), .next(2), .next(3)])
    }

    func testShareReplay1TerminationWhileJoiningReachesJoiner() {
        let source = SubjectManualSource<Int>()
        let shared = source.observable.share(replay: 1)
        _ = shared.subscribe(onNext: { _ in })
        source.send(.next(1))
        let recorder = SubjectEventRecorder<Int>()
        recorder.onEvent = { event in
            if event.element == 1 { source.send(.completed) }
        }
        _ = shared.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.next(1), .completed])
    }

    func testWhileConnectedLargerReplayReplaysBufferAndResubscribesAfterTermination() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .next(30, 3), .completed(40)])
        var shared: Observable<Int>!
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        let third = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(100) { shared = xs.share(replay: 2) }
        scheduler.scheduleAt(200) { _ = shared.subscribe(first) }
        scheduler.scheduleAt(235) { _ = shared.subscribe(second) }
        scheduler.scheduleAt(300) { _ = shared.subscribe(third) }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(210, 1), .next(220, 2), .next(230, 3), .completed(240)])
        XCTAssertEqual(second.events, [.next(235, 2), .next(235, 3), .completed(240)])
        XCTAssertEqual(third.events, [.next(310, 1), .next(320, 2), .next(330, 3), .completed(340)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 240), Subscription(300, 340)])
    }

    // MARK: .forever

    func testForeverAfterTerminationReplaysBufferAndTerminalWithoutResubscribing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
        var shared: Observable<Int>!
        let first = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(100) { shared = xs.share(replay: 1, scope: .forever) }
        scheduler.scheduleAt(200) { _ = shared.subscribe(first) }
        scheduler.scheduleAt(300) { _ = shared.subscribe(late) }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(210, 1), .next(220, 2), .completed(230)])
        XCTAssertEqual(late.events, [.next(300, 2), .completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)], "the source is not subscribed again")
    }

    func testForeverWithoutReplayGivesLateSubscribersOnlyTheTerminalEvent() {
        let source = SubjectManualSource<Int>()
        let shared = source.observable.share(scope: .forever)
        let first = SubjectEventRecorder<Int>()
        _ = shared.subscribe(first)
        source.send(.next(1))
        source.send(.error(SubjectTestError(2)))
        let late = SubjectEventRecorder<Int>()
        _ = shared.subscribe(late)
        XCTAssertEqual(first.events, [.next(1), .error(SubjectTestError(2))])
        XCTAssertEqual(late.events, [.error(SubjectTestError(2))])
        XCTAssertEqual(source.subscribeCount, 1)
    }

    func testForeverKeepsBufferAcrossDisconnectAndReconnects() {
        let source = SubjectManualSource<Int>()
        let shared = source.observable.share(replay: 1, scope: .forever)
        let first = shared.subscribe(onNext: { _ in })
        source.send(.next(1))
        first.dispose()
        XCTAssertEqual(source.disposeCount, 1, "the last dispose still disconnects")
        let recorder = SubjectEventRecorder<Int>()
        _ = shared.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.next(1)], "the subject, and its buffer, outlive the connection")
        XCTAssertEqual(source.subscribeCount, 2)
        source.send(.next(2))
        XCTAssertEqual(recorder.events, [.next(1), .next(2)])
    }

    func testShareReplay1ReleasesReplacedElementOutsideTheLock() {
        var released: [Bool] = []
        let source = PublishSubject<SubjectLockProbe?>()
        let shared = UncheckedBox(source.share(replay: 1))
        _ = shared.value.subscribe(onNext: { _ in })
        // Subscribing takes the share's lock: the probe fails if the element is released under it.
        source.onNext(SubjectLockProbe(probe: { _ = shared.value.subscribe(onNext: { _ in }) }, onRelease: { released.append($0) }))
        source.onNext(nil)
        XCTAssertEqual(released, [true], "the replaced element was released while the share's lock was held")
    }
}
