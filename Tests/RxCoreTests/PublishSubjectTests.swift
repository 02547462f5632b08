import Dispatch
import RxCore
import RxTesting
import XCTest

final class PublishSubjectTests: XCTestCase {
    func testNoReplaySubscribersGetOnlyLaterElements() {
        let subject = PublishSubject<Int>()
        subject.onNext(1)
        let first = SubjectEventRecorder<Int>()
        _ = subject.subscribe(first)
        subject.onNext(2)
        let second = SubjectEventRecorder<Int>()
        _ = subject.subscribe(second)
        subject.on(.next(3))
        XCTAssertEqual(first.events, [.next(2), .next(3)])
        XCTAssertEqual(second.events, [.next(3)])
    }

    func testHotObservableThroughSubjectTheRxTestWay() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(210, 2), .next(250, 3), .next(320, 4), .completed(400), .next(410, 5),
        ])
        let subject = PublishSubject<Int>()
        scheduler.scheduleAt(100) { _ = xs.subscribe(subject) }
        let early = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        let afterEnd = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = subject.subscribe(early) }
        scheduler.scheduleAt(300) { _ = subject.subscribe(late) }
        scheduler.scheduleAt(500) { _ = subject.subscribe(afterEnd) }
        scheduler.start()
        XCTAssertEqual(early.events, [.next(210, 2), .next(250, 3), .next(320, 4), .completed(400)])
        XCTAssertEqual(late.events, [.next(320, 4), .completed(400)])
        XCTAssertEqual(afterEnd.events, [.completed(500)])
        XCTAssertEqual(xs.subscriptions, [Subscription(100)])
    }

    func testAfterCompletedLateSubscribersGetOnlyCompleted() {
        let subject = PublishSubject<Int>()
        subject.onNext(1)
        subject.onCompleted()
        subject.onNext(2)
        subject.onError(SubjectTestError())
        let late = SubjectEventRecorder<Int>()
        _ = subject.subscribe(late)
        XCTAssertEqual(late.events, [.completed])
    }

    func testAfterErrorLateSubscribersGetOnlyTheError() {
        let subject = PublishSubject<Int>()
        let early = SubjectEventRecorder<Int>()
        _ = subject.subscribe(early)
        subject.onNext(1)
        subject.onError(SubjectTestError(7))
        subject.onCompleted()
        let late = SubjectEventRecorder<Int>()
        _ = subject.subscribe(late)
        XCTAssertEqual(early.events, [.next(1), .error(SubjectTestError(7))])
        XCTAssertEqual(late.events, [.error(SubjectTestError(7))])
    }

    func testAfterDisposeLateSubscribersGetDisposedErrorAndEventsAreIgnored() {
        let subject = PublishSubject<Int>()
        let early = SubjectEventRecorder<Int>()
        _ = subject.subscribe(early)
        subject.onNext(1)
        subject.dispose()
        XCTAssertTrue(subject.isDisposed)
        subject.onNext(2)
        subject.onCompleted()
        let late = SubjectEventRecorder<Int>()
        _ = subject.subscribe(late)
        XCTAssertEqual(early.events, [.next(1)])
        XCTAssertEqual(late.events.count, 1)
        XCTAssertSubjectDisposedError(late.events.first, object: subject)
    }

    func testDisposeAfterTerminationGivesDisposedNotTheTerminalEvent() {
        let subject = PublishSubject<Int>()
        subject.onCompleted()
        subject.dispose()
        let late = SubjectEventRecorder<Int>()
        _ = subject.subscribe(late)
        XCTAssertSubjectDisposedError(late.events.first, object: subject)
    }

    func testHasObserversFollowsSubscriptionsAndTermination() {
        let subject = PublishSubject<Int>()
        XCTAssertFalse(subject.hasObservers)
        let first = subject.subscribe(onNext: { _ in })
        let second = subject.subscribe(onNext: { _ in })
        XCTAssertTrue(subject.hasObservers)
        first.dispose()
        XCTAssertTrue(subject.hasObservers)
        second.dispose()
        XCTAssertFalse(subject.hasObservers)
        _ = subject.subscribe(onNext: { _ in })
        subject.onCompleted()
        XCTAssertFalse(subject.hasObservers, "a terminal event detaches every observer")
    }

    func testDisposingSubscriptionStopsDeliveryToThatObserverOnly() {
        let subject = PublishSubject<Int>()
        let kept = SubjectEventRecorder<Int>()
        let dropped = SubjectEventRecorder<Int>()
        _ = subject.subscribe(kept)
        let subscription = subject.subscribe(dropped)
        subject.onNext(1)
        subscription.dispose()
        subscription.dispose()
        subject.onNext(2)
        XCTAssertEqual(kept.events, [.next(1), .next(2)])
        XCTAssertEqual(dropped.events, [.next(1)])
    }

    func testOperatorChainOnSubject() {
        let subject = PublishSubject<Int>()
        var seen: [Int] = []
        let subscription = subject.map { $0 * 2 }.subscribe(onNext: { seen.append($0) })
        subject.onNext(1)
        subject.onNext(2)
        subscription.dispose()
        subject.onNext(3)
        XCTAssertEqual(seen, [2, 4])
        XCTAssertFalse(subject.hasObservers)
    }

    func testAsObserverIsTheSubject() {
        let subject = PublishSubject<Int>()
        let observer: PublishSubject<Int> = subject.asObserver()
        XCTAssertTrue(observer === subject)
        let recorder = SubjectEventRecorder<Int>()
        _ = subject.subscribe(recorder)
        subject.asObserver().onNext(5)
        XCTAssertEqual(recorder.events, [.next(5)])
    }

    // "Subjects emit outside their lock, to a snapshot of observers."

    func testEmitsOutsideTheLock() {
        let subject = PublishSubject<Int>()
        var otherThreadGotThrough = false
        _ = subject.subscribe(onNext: { _ in
            // Another thread needs the subject's lock; were it held during emission,
            // that thread would block and the wait would time out.
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                _ = subject.hasObservers
                done.signal()
            }
            otherThreadGotThrough = done.wait(timeout: .now() + 5) == .success
        })
        subject.onNext(1)
        XCTAssertTrue(otherThreadGotThrough)
    }

    func testEmitsToSnapshotSubscriberAddedDuringEmissionGetsOnlyLaterElements() {
        let subject = PublishSubject<Int>()
        let added = SubjectEventRecorder<Int>()
        var subscribedOnce = false
        _ = subject.subscribe(onNext: { _ in
            if !subscribedOnce {
                subscribedOnce = true
                _ = subject.subscribe(added)
            }
        })
        subject.onNext(1)
        subject.onNext(2)
        XCTAssertEqual(added.events, [.next(2)])
    }

    func testReentrantEmissionFromObserverIsDelivered() {
        let subject = PublishSubject<Int>()
        var seen: [Int] = []
        _ = subject.subscribe(onNext: { value in
            seen.append(value)
            if value == 1 { subject.onNext(2) }
        })
        subject.onNext(1)
        XCTAssertEqual(seen, [1, 2])
    }

    func testObserverMayDisposeItselfDuringEmission() {
        let subject = PublishSubject<Int>()
        var seen: [Int] = []
        var subscription: Disposable?
        subscription = subject.subscribe(onNext: { value in
            seen.append(value)
            subscription?.dispose()
        })
        subject.onNext(1)
        subject.onNext(2)
        XCTAssertEqual(seen, [1])
        XCTAssertFalse(subject.hasObservers)
    }
}
