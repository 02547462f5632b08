import Dispatch
import RxCore
import RxTesting
import Synchronization
import XCTest

final class SubjectConcurrencyTests: XCTestCase {
    /// Writes 0, 1, 2, … on one thread while `join` runs on `joinThreads` others, then
    /// one last value once they are done; returns that last value.
    private func writeWhileJoining(joinThreads: Int, cap: Int = 20_000, write: @escaping @Sendable (Int) -> Void, join: @escaping @Sendable (Int) -> Void) -> Int {
        let joinsLeft = Atomic<Int>(joinThreads)
        let last = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: joinThreads + 1) { index in
            if index == 0 {
                var value = 0
                // Capped so one core running both roles in turn still finishes.
                while joinsLeft.load(ordering: .acquiring) > 0 && value < cap {
                    write(value)
                    value += 1
                }
                write(value)
                last.store(value, ordering: .releasing)
            } else {
                join(index - 1)
                joinsLeft.wrappingSubtract(1, ordering: .releasing)
            }
        }
        return last.load(ordering: .acquiring)
    }

    // MARK: Delivery while subscribers come and go

    func testPublishSubjectConcurrentOnNextWithChurnLosesAndRepeatsNothingForStayingSubscribers() {
        let subject = PublishSubject<Int>()
        let staying = (0..<3).map { _ in SubjectEventRecorder<Int>() }
        let subscriptions = staying.map { subject.subscribe($0) }
        let senders = 3
        let perSender = 1000
        DispatchQueue.concurrentPerform(iterations: senders + 2) { index in
            if index < senders {
                for value in 0..<perSender {
                    subject.onNext(index * perSender + value)
                }
            } else {
                for _ in 0..<300 {
                    subject.subscribe(onNext: { _ in }).dispose()
                }
            }
        }
        for recorder in staying {
            XCTAssertEqual(recorder.elements.sorted(), Array(0..<(senders * perSender)))
        }
        subscriptions.forEach { $0.dispose() }
        XCTAssertFalse(subject.hasObservers, "every subscription's disposable removed its observer")
    }

    func testBehaviorSubjectJoinersGetIncreasingValuesEndingWithTheCurrentOne() {
        let subject = BehaviorSubject(value: -1)
        let joiners = (0..<2).map { _ in (0..<40).map { _ in SubjectEventRecorder<Int>(pausesOnFirstEvent: true) } }
        let last = writeWhileJoining(joinThreads: 2, write: { subject.onNext($0) }, join: { thread in
            for recorder in joiners[thread] {
                _ = subject.subscribe(recorder)
                // A subscriber that leaves at once must still not see repeats.
                let transient = SubjectEventRecorder<Int>(pausesOnFirstEvent: true)
                subject.subscribe(transient).dispose()
                assertStrictlyIncreasing(transient.elements)
            }
        })
        for recorder in joiners.joined() {
            let values = recorder.elements
            assertStrictlyIncreasing(values)
            XCTAssertEqual(values.last, last, "a subscriber missed the final value")
        }
        XCTAssertEqual(try subject.value(), last)
    }

    func testUnboundedReplaySubjectJoinersGetEveryElementInOrder() {
        let subject = ReplaySubject<Int>.createUnbounded()
        let joiners = (0..<2).map { _ in (0..<10).map { _ in SubjectEventRecorder<Int>(pausesOnFirstEvent: true) } }
        // Each joiner replays everything so far: a lower cap keeps this quick under TSan.
        let last = writeWhileJoining(joinThreads: 2, cap: 4_000, write: { subject.onNext($0) }, join: { thread in
            for recorder in joiners[thread] {
                _ = subject.subscribe(recorder)
            }
        })
        for recorder in joiners.joined() {
            XCTAssertEqual(recorder.elements, Array(0...last))
        }
    }

    func testBoundedReplaySubjectJoinersGetIncreasingElementsEndingWithTheLast() {
        let subject = ReplaySubject<Int>.create(bufferSize: 3)
        let joiners = (0..<2).map { _ in (0..<40).map { _ in SubjectEventRecorder<Int>(pausesOnFirstEvent: true) } }
        let last = writeWhileJoining(joinThreads: 2, write: { subject.onNext($0) }, join: { thread in
            for recorder in joiners[thread] {
                _ = subject.subscribe(recorder)
            }
        })
        for recorder in joiners.joined() {
            let values = recorder.elements
            assertStrictlyIncreasing(values)
            XCTAssertEqual(values.last, last)
        }
    }

    func testBehaviorRelayAcceptFromManyThreads() {
        let relay = BehaviorRelay(value: -1)
        let recorder = SubjectEventRecorder<Int>()
        _ = relay.subscribe(recorder)
        let threads = 4
        let perThread = 500
        let readsOutOfRange = DisposablesTestCounter()
        DispatchQueue.concurrentPerform(iterations: threads + 1) { index in
            if index < threads {
                for value in 0..<perThread {
                    relay.accept(index * perThread + value)
                }
            } else {
                for _ in 0..<1000 where !(-1..<(threads * perThread)).contains(relay.value) {
                    readsOutOfRange.increment()
                }
            }
        }
        XCTAssertEqual(recorder.elements.sorted(), [-1] + Array(0..<(threads * perThread)))
        XCTAssertTrue((0..<(threads * perThread)).contains(relay.value))
        XCTAssertEqual(readsOutOfRange.value, 0)
    }

    // MARK: Terminal events racing subscriptions

    func testSubscribersRacingTerminationGetTheTerminalEventExactlyOnce() {
        for _ in 0..<100 {
            let publish = PublishSubject<Int>()
            let behavior = BehaviorSubject(value: 0)
            let replay = ReplaySubject<Int>.create(bufferSize: 1)
            let async = AsyncSubject<Int>()
            replay.onNext(1)
            async.onNext(1)
            let recorders = (0..<4).map { _ in (0..<4).map { _ in SubjectEventRecorder<Int>() } }
            DispatchQueue.concurrentPerform(iterations: 5) { index in
                if index == 4 {
                    publish.onCompleted()
                    behavior.onCompleted()
                    replay.onCompleted()
                    async.onCompleted()
                } else {
                    _ = publish.subscribe(recorders[0][index])
                    _ = behavior.subscribe(recorders[1][index])
                    _ = replay.subscribe(recorders[2][index])
                    _ = async.subscribe(recorders[3][index])
                }
            }
            for recorder in recorders[0] {
                XCTAssertEqual(recorder.events, [.completed])
            }
            for recorder in recorders[1] {
                let events = recorder.events
                XCTAssertTrue(events == [.next(0), .completed] || events == [.completed], "\(events)")
            }
            for recorder in recorders[2] {
                XCTAssertEqual(recorder.events, [.next(1), .completed])
            }
            for recorder in recorders[3] {
                XCTAssertEqual(recorder.events, [.next(1), .completed])
            }
        }
    }

    func testDisposeRacingEmissionAndSubscription() {
        for _ in 0..<50 {
            let subject = BehaviorSubject(value: 0)
            DispatchQueue.concurrentPerform(iterations: 4) { index in
                switch index {
                case 0:
                    for value in 0..<200 { subject.onNext(value) }
                case 1:
                    for _ in 0..<50 { subject.subscribe(onNext: { _ in }, onError: { _ in }).dispose() }
                case 2:
                    subject.dispose()
                default:
                    for _ in 0..<100 { _ = (subject.hasObservers, subject.isDisposed, try? subject.value()) }
                }
            }
            XCTAssertTrue(subject.isDisposed)
            XCTAssertFalse(subject.hasObservers)
            let late = SubjectEventRecorder<Int>()
            _ = subject.subscribe(late)
            XCTAssertSubjectDisposedError(late.events.first, object: subject)
        }
    }

    func testSubscriptionDisposableDisposedFromManyThreadsRemovesOnlyItsObserver() {
        let subject = PublishSubject<Int>()
        let kept = SubjectEventRecorder<Int>()
        _ = subject.subscribe(kept)
        let subscription = UncheckedBox(subject.subscribe(onNext: { _ in }))
        DispatchQueue.concurrentPerform(iterations: 8) { _ in subscription.value.dispose() }
        subject.onNext(1)
        XCTAssertEqual(kept.events, [.next(1)])
        XCTAssertTrue(subject.hasObservers)
    }

    // MARK: Sharing

    func testShareConnectionsAreNeverLeakedUnderConcurrentSubscribeAndDispose() {
        let variants: [(String, (Observable<Int>) -> Observable<Int>)] = [
            ("share()", { $0.share() }),
            ("share(replay: 1)", { $0.share(replay: 1) }),
            ("share(replay: 2)", { $0.share(replay: 2) }),
            ("publish().refCount()", { $0.publish().refCount() }),
            ("share(replay: 1, scope: .forever)", { $0.share(replay: 1, scope: .forever) }),
        ]
        for (name, makeShared) in variants {
            let subscribes = DisposablesTestCounter()
            let disposes = DisposablesTestCounter()
            let source = Observable<Int>.create { observer in
                subscribes.increment()
                observer.onNext(1)
                return Disposables.create { disposes.increment() }
            }
            let shared = UncheckedBox(makeShared(source))
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                for _ in 0..<200 {
                    shared.value.subscribe(onNext: { _ in }).dispose()
                }
            }
            XCTAssertGreaterThanOrEqual(subscribes.value, 1, name)
            XCTAssertEqual(subscribes.value, disposes.value, "\(name): a source subscription outlived every subscriber")
        }
    }

    func testShareReplay1JoinersGetIncreasingValuesEndingWithTheLast() {
        let subject = PublishSubject<Int>()
        let shared = UncheckedBox(subject.share(replay: 1))
        let anchor = SubjectEventRecorder<Int>()
        _ = shared.value.subscribe(anchor)
        let joiners = (0..<2).map { _ in (0..<40).map { _ in SubjectEventRecorder<Int>(pausesOnFirstEvent: true) } }
        let last = writeWhileJoining(joinThreads: 2, write: { subject.onNext($0) }, join: { thread in
            for recorder in joiners[thread] {
                _ = shared.value.subscribe(recorder)
                shared.value.subscribe(onNext: { _ in }).dispose()
            }
        })
        XCTAssertEqual(anchor.elements, Array(0...last))
        for recorder in joiners.joined() {
            let values = recorder.elements
            assertStrictlyIncreasing(values)
            XCTAssertEqual(values.last, last)
        }
    }
}

/// Fails unless `values` only ever go up.
private func assertStrictlyIncreasing(_ values: [Int], file: StaticString = #filePath, line: UInt = #line) {
    for (previous, next) in zip(values, values.dropFirst()) where next <= previous {
        XCTFail("out of order or repeated: \(previous) then \(next)", file: file, line: line)
        return
    }
}
