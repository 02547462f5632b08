import RxCore
import RxTesting
import XCTest

final class AsyncSubjectTests: XCTestCase {
    func testSendsNothingUntilTermination() {
        let subject = AsyncSubject<Int>()
        let recorder = SubjectEventRecorder<Int>()
        _ = subject.subscribe(recorder)
        subject.onNext(1)
        subject.onNext(2)
        XCTAssertEqual(recorder.events, [])
    }

    func testCompletedSendsLastElementThenCompleted() {
        let subject = AsyncSubject<Int>()
        let recorder = SubjectEventRecorder<Int>()
        _ = subject.subscribe(recorder)
        subject.onNext(1)
        subject.onNext(2)
        subject.onCompleted()
        subject.onNext(3)
        XCTAssertEqual(recorder.events, [.next(2), .completed])
    }

    func testCompletedWithoutElementsSendsOnlyCompleted() {
        let subject = AsyncSubject<Int>()
        let recorder = SubjectEventRecorder<Int>()
        _ = subject.subscribe(recorder)
        subject.onCompleted()
        XCTAssertEqual(recorder.events, [.completed])
    }

    func testErrorSendsOnlyTheError() {
        let subject = AsyncSubject<Int>()
        let recorder = SubjectEventRecorder<Int>()
        _ = subject.subscribe(recorder)
        subject.onNext(1)
        subject.onError(SubjectTestError(4))
        subject.onCompleted()
        XCTAssertEqual(recorder.events, [.error(SubjectTestError(4))])
    }

    func testLateSubscribersGetTheSameOutcome() {
        let completed = AsyncSubject<Int>()
        completed.onNext(1)
        completed.onNext(2)
        completed.onCompleted()
        let lateCompleted = SubjectEventRecorder<Int>()
        _ = completed.subscribe(lateCompleted)
        XCTAssertEqual(lateCompleted.events, [.next(2), .completed])

        let empty = AsyncSubject<Int>()
        empty.onCompleted()
        let lateEmpty = SubjectEventRecorder<Int>()
        _ = empty.subscribe(lateEmpty)
        XCTAssertEqual(lateEmpty.events, [.completed])

        let failed = AsyncSubject<Int>()
        failed.onNext(1)
        failed.onError(SubjectTestError(5))
        let lateFailed = SubjectEventRecorder<Int>()
        _ = failed.subscribe(lateFailed)
        XCTAssertEqual(lateFailed.events, [.error(SubjectTestError(5))])
    }

    func testHotObservableThroughSubjectTheRxTestWay() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(400)])
        let subject = AsyncSubject<Int>()
        scheduler.scheduleAt(100) { _ = xs.subscribe(subject) }
        let early = scheduler.createObserver(Int.self)
        let afterEnd = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = subject.subscribe(early) }
        scheduler.scheduleAt(500) { _ = subject.subscribe(afterEnd) }
        scheduler.start()
        XCTAssertEqual(early.events, [.next(400, 2), .completed(400)])
        XCTAssertEqual(afterEnd.events, [.next(500, 2), .completed(500)])
    }

    func testDisposingSubscriptionRemovesObserver() {
        let subject = AsyncSubject<Int>()
        let recorder = SubjectEventRecorder<Int>()
        let subscription = subject.subscribe(recorder)
        XCTAssertTrue(subject.hasObservers)
        subscription.dispose()
        XCTAssertFalse(subject.hasObservers)
        subject.onNext(1)
        subject.onCompleted()
        XCTAssertEqual(recorder.events, [])
    }

    func testAfterDisposeLateSubscribersGetDisposedError() {
        let subject = AsyncSubject<Int>()
        subject.onNext(1)
        subject.dispose()
        XCTAssertTrue(subject.isDisposed)
        subject.onCompleted()
        let late = SubjectEventRecorder<Int>()
        _ = subject.subscribe(late)
        XCTAssertEqual(late.events.count, 1)
        XCTAssertSubjectDisposedError(late.events.first, object: subject)
    }
}
