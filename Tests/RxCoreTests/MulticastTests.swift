import RxCore
import RxTesting
import XCTest

final class MulticastTests: XCTestCase {
    func testNothingIsSubscribedBeforeConnect() {
        let source = SubjectManualSource<Int>()
        let connectable = source.observable.multicast(PublishSubject<Int>())
        let recorder = SubjectEventRecorder<Int>()
        _ = connectable.subscribe(recorder)
        XCTAssertEqual(source.subscribeCount, 0)
        _ = connectable.connect()
        XCTAssertEqual(source.subscribeCount, 1)
        source.send(.next(1))
        XCTAssertEqual(recorder.events, [.next(1)])
    }

    func testConnectTwiceSharesOneConnectionAndDisposingItDisconnects() {
        let source = SubjectManualSource<Int>()
        let connectable = source.observable.publish()
        let recorder = SubjectEventRecorder<Int>()
        _ = connectable.subscribe(recorder)
        let connection = connectable.connect()
        let again = connectable.connect()
        XCTAssertEqual(source.subscribeCount, 1)
        source.send(.next(1))
        again.dispose()
        XCTAssertEqual(source.disposeCount, 1)
        source.send(.next(2))
        connection.dispose()
        XCTAssertEqual(recorder.events, [.next(1)], "a disconnect does not terminate subscribers")
    }

    func testHotSourceThroughMulticastTheRxTestWay() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .next(270, 3), .completed(400)])
        var connectable: ConnectableObservable<Int>!
        var connection: Disposable?
        let observer = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(100) { connectable = xs.multicast(ReplaySubject<Int>.create(bufferSize: 1)) }
        scheduler.scheduleAt(200) { connection = connectable.connect() }
        scheduler.scheduleAt(250) { _ = connectable.subscribe(observer) }
        scheduler.scheduleAt(300) { connection?.dispose() }
        scheduler.start()
        XCTAssertEqual(observer.events, [.next(250, 2), .next(270, 3)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testFixedSubjectStaysTerminatedAcrossConnections() {
        let source = SubjectManualSource<Int>()
        let connectable = source.observable.multicast(ReplaySubject<Int>.create(bufferSize: 1))
        _ = connectable.connect()
        source.send(.next(1))
        source.send(.completed)
        let late = SubjectEventRecorder<Int>()
        _ = connectable.subscribe(late)
        XCTAssertEqual(late.events, [.next(1), .completed])
    }

    func testSubjectFactoryMakesNewSubjectAfterTermination() {
        let source = SubjectManualSource<Int>()
        var made = 0
        let connectable = source.observable.multicast(makeSubject: { () -> ReplaySubject<Int> in
            made += 1
            return ReplaySubject.create(bufferSize: 1)
        })
        let first = SubjectEventRecorder<Int>()
        _ = connectable.subscribe(first)
        _ = connectable.connect()
        source.send(.next(1))
        source.send(.completed)
        let second = SubjectEventRecorder<Int>()
        _ = connectable.subscribe(second)
        XCTAssertEqual(second.events, [], "a fresh subject, not the terminated one")
        _ = connectable.connect()
        source.send(.next(2))
        XCTAssertEqual(first.events, [.next(1), .completed])
        XCTAssertEqual(second.events, [.next(2)])
        XCTAssertEqual(made, 2)
        XCTAssertEqual(source.subscribeCount, 2)
    }

    func testSubjectFactoryMakesNewSubjectAfterDisconnect() {
        let source = SubjectManualSource<Int>()
        let connectable = source.observable.replay(1)
        let connection = connectable.connect()
        source.send(.next(1))
        connection.dispose()
        let late = SubjectEventRecorder<Int>()
        _ = connectable.subscribe(late)
        XCTAssertEqual(late.events, [], "replay(_:) forgets its buffer with its connection")
    }

    func testReplayAndReplayAllConnectables() {
        let source = SubjectManualSource<Int>()
        let replay2 = source.observable.replay(2)
        _ = replay2.connect()
        for value in 1...3 { source.send(.next(value)) }
        let recorder = SubjectEventRecorder<Int>()
        _ = replay2.subscribe(recorder)
        XCTAssertEqual(recorder.elements, [2, 3])

        let all = SubjectManualSource<Int>()
        let replayAll = all.observable.replayAll()
        _ = replayAll.connect()
        for value in 1...3 { all.send(.next(value)) }
        let allRecorder = SubjectEventRecorder<Int>()
        _ = replayAll.subscribe(allRecorder)
        XCTAssertEqual(allRecorder.elements, [1, 2, 3])
    }

    func testSynchronousSourceCompletesDuringConnect() {
        let connectable = Observable.just(1).publish()
        let recorder = SubjectEventRecorder<Int>()
        _ = connectable.subscribe(recorder)
        _ = connectable.connect()
        XCTAssertEqual(recorder.events, [.next(1), .completed])
    }

    func testSelectorFormMakesPrivateConnectionPerSubscription() {
        let source = SubjectManualSource<Int>()
        let zipped = source.observable.multicast({ PublishSubject<Int>() }, selector: { shared in
            shared.map { $0 * 10 }
        })
        let first = SubjectEventRecorder<Int>()
        let second = SubjectEventRecorder<Int>()
        let firstSubscription = zipped.subscribe(first)
        _ = zipped.subscribe(second)
        XCTAssertEqual(source.subscribeCount, 2)
        source.observers[0].onNext(1)
        source.observers[1].onNext(2)
        firstSubscription.dispose()
        XCTAssertEqual(source.disposeCount, 1)
        XCTAssertEqual(first.events, [.next(10)])
        XCTAssertEqual(second.events, [.next(20)])
    }

    func testSelectorFormThrowingSelectorErrors() {
        let source = SubjectManualSource<Int>()
        let failing = source.observable.multicast({ PublishSubject<Int>() }, selector: { _ -> Observable<Int> in
            throw SubjectTestError(8)
        })
        let recorder = SubjectEventRecorder<Int>()
        _ = failing.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.error(SubjectTestError(8))])
        XCTAssertEqual(source.subscribeCount, 0)
    }
}
