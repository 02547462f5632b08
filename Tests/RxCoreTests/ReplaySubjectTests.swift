import RxCore
import RxTesting
import XCTest

final class ReplaySubjectTests: XCTestCase {
    func testBoundedBufferReplaysLastElements() {
        let subject = ReplaySubject<Int>.create(bufferSize: 2)
        subject.onNext(1)
        subject.onNext(2)
        subject.onNext(3)
        let late = SubjectEventRecorder<Int>()
        _ = subject.subscribe(late)
        XCTAssertEqual(late.events, [.next(2), .next(3)], "replayed synchronously, oldest first")
        subject.onNext(4)
        XCTAssertEqual(late.events, [.next(2), .next(3), .next(4)])
    }

    func testBufferOfOneReplaysLatest() {
        let subject = ReplaySubject<Int>.create(bufferSize: 1)
        let empty = SubjectEventRecorder<Int>()
        _ = subject.subscribe(empty)
        XCTAssertEqual(empty.events, [])
        subject.onNext(1)
        subject.onNext(2)
        let late = SubjectEventRecorder<Int>()
        _ = subject.subscribe(late)
        XCTAssertEqual(late.events, [.next(2)])
    }

    func testBufferOfZeroReplaysNothing() {
        let subject = ReplaySubject<Int>.create(bufferSize: 0)
        subject.onNext(1)
        let late = SubjectEventRecorder<Int>()
        _ = subject.subscribe(late)
        subject.onNext(2)
        XCTAssertEqual(late.events, [.next(2)])
    }

    func testRingBufferKeepsOrderAfterWrappingManyTimes() {
        let subject = ReplaySubject<Int>.create(bufferSize: 3)
        for value in 1...10 { subject.onNext(value) }
        let late = SubjectEventRecorder<Int>()
        _ = subject.subscribe(late)
        XCTAssertEqual(late.elements, [8, 9, 10])
    }

    func testUnboundedReplaysEverything() {
        let subject = ReplaySubject<Int>.createUnbounded()
        for value in 1...100 { subject.onNext(value) }
        let late = SubjectEventRecorder<Int>()
        _ = subject.subscribe(late)
        XCTAssertEqual(late.elements, Array(1...100))
    }

    func testReplaysBufferThenCompleted() {
        let subject = ReplaySubject<Int>.create(bufferSize: 2)
        subject.onNext(1)
        subject.onNext(2)
        subject.onNext(3)
        subject.onCompleted()
        subject.onNext(4)
        let late = SubjectEventRecorder<Int>()
        _ = subject.subscribe(late)
        XCTAssertEqual(late.events, [.next(2), .next(3), .completed])
    }

    func testReplaysBufferThenError() {
        let subject = ReplaySubject<Int>.createUnbounded()
        subject.onNext(1)
        subject.onError(SubjectTestError(2))
        let late = SubjectEventRecorder<Int>()
        _ = subject.subscribe(late)
        XCTAssertEqual(late.events, [.next(1), .error(SubjectTestError(2))])
    }

    func testHotObservableThroughSubjectTheRxTestWay() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(400)])
        let subject = ReplaySubject<Int>.create(bufferSize: 2)
        scheduler.scheduleAt(100) { _ = xs.subscribe(subject) }
        let early = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        let afterEnd = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = subject.subscribe(early) }
        scheduler.scheduleAt(300) { _ = subject.subscribe(late) }
        scheduler.scheduleAt(500) { _ = subject.subscribe(afterEnd) }
        scheduler.start()
        XCTAssertEqual(early.events, [.next(210, 1), .next(220, 2), .next(230, 3), .completed(400)])
        XCTAssertEqual(late.events, [.next(300, 2), .next(300, 3), .completed(400)])
        XCTAssertEqual(afterEnd.events, [.next(500, 2), .next(500, 3), .completed(500)])
    }

    func testAfterDisposeLateSubscribersGetDisposedErrorAndBufferIsCleared() {
        let subject = ReplaySubject<Int>.createUnbounded()
        subject.onNext(1)
        subject.onNext(2)
        subject.dispose()
        XCTAssertTrue(subject.isDisposed)
        subject.onNext(3)
        let late = SubjectEventRecorder<Int>()
        _ = subject.subscribe(late)
        XCTAssertEqual(late.events.count, 1, "no buffered element is replayed after dispose")
        XCTAssertSubjectDisposedError(late.events.first, object: subject)
    }

    func testDisposeReleasesBufferedElements() {
        final class Payload {}
        weak var weakPayload: Payload?
        let subject = ReplaySubject<Payload>.create(bufferSize: 4)
        do {
            let payload = Payload()
            weakPayload = payload
            subject.onNext(payload)
        }
        XCTAssertNotNil(weakPayload)
        subject.dispose()
        XCTAssertNil(weakPayload, "dispose clears the buffer")
    }

    func testHasObserversAndSubscriptionDisposal() {
        let subject = ReplaySubject<Int>.create(bufferSize: 1)
        let recorder = SubjectEventRecorder<Int>()
        let subscription = subject.subscribe(recorder)
        XCTAssertTrue(subject.hasObservers)
        subject.onNext(1)
        subscription.dispose()
        XCTAssertFalse(subject.hasObservers)
        subject.onNext(2)
        XCTAssertEqual(recorder.events, [.next(1)])
    }

    func testElementSentDuringReplayFollowsTheBuffer() {
        let subject = ReplaySubject<Int>.create(bufferSize: 2)
        subject.onNext(1)
        subject.onNext(2)
        let recorder = SubjectEventRecorder<Int>()
        recorder.onEvent = { event in
            if event.element == 1 { subject.onNext(3) }
        }
        _ = subject.subscribe(recorder)
        subject.onNext(4)
        XCTAssertEqual(recorder.elements, [1, 2, 3, 4], "nothing lost or repeated")
    }

    func testEvictedElementIsReleasedOutsideTheLock() {
        var released: [Bool] = []
        let subject = ReplaySubject<SubjectLockProbe?>.create(bufferSize: 1)
        subject.onNext(SubjectLockProbe(probe: { _ = subject.hasObservers }, onRelease: { released.append($0) }))
        subject.onNext(nil)
        XCTAssertEqual(released, [true], "the evicted element was released while the subject's lock was held")
    }

    func testLongBufferIsReplayedCompletelyAcrossChunks() {
        let subject = ReplaySubject<Int>.create(bufferSize: 200)
        for value in 1...500 { subject.onNext(value) }
        let late = SubjectEventRecorder<Int>()
        _ = subject.subscribe(late)
        XCTAssertEqual(late.elements, Array(301...500))
    }
}
