import RxCore
import RxTesting
import XCTest

final class BehaviorSubjectTests: XCTestCase {
    func testNewSubscriberGetsCurrentValueSynchronously() {
        let subject = BehaviorSubject(value: 0)
        let first = SubjectEventRecorder<Int>()
        _ = subject.subscribe(first)
        XCTAssertEqual(first.events, [.next(0)], "the initial value arrives during subscribe")
        subject.onNext(1)
        subject.onNext(2)
        let second = SubjectEventRecorder<Int>()
        _ = subject.subscribe(second)
        XCTAssertEqual(second.events, [.next(2)])
        subject.on(.next(3))
        XCTAssertEqual(first.events, [.next(0), .next(1), .next(2), .next(3)])
        XCTAssertEqual(second.events, [.next(2), .next(3)])
    }

    func testHotObservableThroughSubjectTheRxTestWay() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(250, 3), .completed(400)])
        let subject = BehaviorSubject(value: 100)
        scheduler.scheduleAt(100) { _ = xs.subscribe(subject) }
        let early = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        let afterEnd = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = subject.subscribe(early) }
        scheduler.scheduleAt(300) { _ = subject.subscribe(late) }
        scheduler.scheduleAt(500) { _ = subject.subscribe(afterEnd) }
        scheduler.start()
        XCTAssertEqual(early.events, [.next(200, 100), .next(210, 2), .next(250, 3), .completed(400)])
        XCTAssertEqual(late.events, [.next(300, 3), .completed(400)])
        XCTAssertEqual(afterEnd.events, [.completed(500)])
    }

    func testAfterCompletedLateSubscribersGetOnlyCompleted() {
        let subject = BehaviorSubject(value: 1)
        subject.onNext(2)
        subject.onCompleted()
        subject.onNext(3)
        let late = SubjectEventRecorder<Int>()
        _ = subject.subscribe(late)
        XCTAssertEqual(late.events, [.completed])
    }

    func testAfterErrorLateSubscribersGetOnlyTheError() {
        let subject = BehaviorSubject(value: 1)
        subject.onError(SubjectTestError(3))
        let late = SubjectEventRecorder<Int>()
        _ = subject.subscribe(late)
        XCTAssertEqual(late.events, [.error(SubjectTestError(3))])
    }

    func testValueReturnsCurrentValue() throws {
        let subject = BehaviorSubject(value: "a")
        XCTAssertEqual(try subject.value(), "a")
        subject.onNext("b")
        XCTAssertEqual(try subject.value(), "b")
    }

    func testValueReturnsLastValueAfterCompleted() throws {
        let subject = BehaviorSubject(value: 1)
        subject.onNext(2)
        subject.onCompleted()
        subject.onNext(3)
        XCTAssertEqual(try subject.value(), 2)
    }

    func testValueThrowsTheErrorAfterError() {
        let subject = BehaviorSubject(value: 1)
        subject.onError(SubjectTestError(9))
        XCTAssertThrowsError(try subject.value()) { error in
            XCTAssertEqual(error as? SubjectTestError, SubjectTestError(9))
        }
    }

    func testValueThrowsDisposedAfterDispose() {
        let subject = BehaviorSubject(value: 1)
        subject.dispose()
        XCTAssertTrue(subject.isDisposed)
        XCTAssertThrowsError(try subject.value()) { error in
            guard case RxError.disposed(let object)? = error as? RxError else {
                return XCTFail("expected RxError.disposed, got \(error)")
            }
            XCTAssertTrue(object === subject)
        }
    }

    func testAfterDisposeLateSubscribersGetDisposedError() {
        let subject = BehaviorSubject(value: 1)
        let early = SubjectEventRecorder<Int>()
        _ = subject.subscribe(early)
        subject.dispose()
        subject.onNext(2)
        let late = SubjectEventRecorder<Int>()
        _ = subject.subscribe(late)
        XCTAssertEqual(early.events, [.next(1)])
        XCTAssertEqual(late.events.count, 1)
        XCTAssertSubjectDisposedError(late.events.first, object: subject)
        XCTAssertFalse(subject.hasObservers)
    }

    func testDisposingSubscriptionRemovesObserver() {
        let subject = BehaviorSubject(value: 0)
        let recorder = SubjectEventRecorder<Int>()
        let subscription = subject.subscribe(recorder)
        XCTAssertTrue(subject.hasObservers)
        subscription.dispose()
        XCTAssertFalse(subject.hasObservers)
        subject.onNext(1)
        XCTAssertEqual(recorder.events, [.next(0)])
    }

    func testElementSentWhileNewSubscriberReceivesCurrentValueFollowsIt() {
        // The current value is delivered outside the lock; an element sent from inside
        // that delivery must reach the new subscriber after it, not be lost.
        let subject = BehaviorSubject(value: 0)
        let recorder = SubjectEventRecorder<Int>()
        recorder.onEvent = { event in
            if event.element == 0 { subject.onNext(1) }
        }
        _ = subject.subscribe(recorder)
        subject.onNext(2)
        XCTAssertEqual(recorder.events, [.next(0), .next(1), .next(2)])
        XCTAssertEqual(try subject.value(), 2)
    }

    func testTerminationWhileNewSubscriberReceivesCurrentValueReachesIt() {
        let subject = BehaviorSubject(value: 0)
        let recorder = SubjectEventRecorder<Int>()
        recorder.onEvent = { event in
            if event.element == 0 { subject.onCompleted() }
        }
        _ = subject.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.next(0), .completed])
    }

    func testEmitsOutsideTheLockSoObserversMayReadValue() {
        let subject = BehaviorSubject(value: 0)
        var read: [Int] = []
        _ = subject.subscribe(onNext: { _ in read.append((try? subject.value()) ?? -1) })
        subject.onNext(5)
        XCTAssertEqual(read, [0, 5])
    }

    func testReplacedValueIsReleasedOutsideTheLock() {
        var released: [Bool] = []
        let subject = BehaviorSubject<SubjectLockProbe?>(value: nil)
        subject.onNext(SubjectLockProbe(probe: { _ = subject.hasObservers }, onRelease: { released.append($0) }))
        subject.onNext(nil)
        XCTAssertEqual(released, [true], "the replaced value was released while the subject's lock was held")
    }
}
