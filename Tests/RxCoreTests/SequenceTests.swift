import RxCore
import RxTesting
import XCTest

/// `of`, `from(_ array:)` and `from(_ sequence:)`.
final class SequenceTests: XCTestCase {
    func testOfSendsElementsThenCompletesSynchronouslyOnTheDefaultScheduler() {
        var events: [String] = []
        _ = Observable.of(1, 2, 3).subscribe { events.append($0.debugDescription) }
        XCTAssertEqual(events, ["next(1)", "next(2)", "next(3)", "completed"])
    }

    func testOfOnATestSchedulerSendsOneElementPerStep() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.of(1, 2, 3, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(201, 1), .next(202, 2), .next(203, 3), .completed(204)])
    }

    func testDisposingOnATestSchedulerCancelsTheRemainingSteps() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 203) { Observable.from([1, 2, 3, 4], scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(201, 1), .next(202, 2)])
    }

    func testFromArrayAndEmptyArray() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.from([7, 8]) }
        XCTAssertEqual(res.events, [.next(200, 7), .next(200, 8), .completed(200)])
        let emptyScheduler = TestScheduler(initialClock: 0)
        let empty = emptyScheduler.start { Observable<Int>.from([Int]()) }
        XCTAssertEqual(empty.events, [.completed(200)])
    }

    func testFromSequenceIteratesAfreshForEachSubscription() {
        let source = Observable.from(stride(from: 0, to: 6, by: 2))
        var first: [Int] = []
        var second: [Int] = []
        _ = source.subscribe(onNext: { first.append($0) })
        _ = source.subscribe(onNext: { second.append($0) })
        XCTAssertEqual(first, [0, 2, 4])
        XCTAssertEqual(second, [0, 2, 4])
    }

    func testDisposalMidIterationStopsPullingElements() {
        var pulled = 0
        let counting = (1...1_000_000).lazy.map { value -> Int in
            pulled += 1
            return value
        }
        var seen: [Int] = []
        _ = Observable.from(counting).take(3).subscribe(onNext: { seen.append($0) })
        XCTAssertEqual(seen, [1, 2, 3])
        XCTAssertEqual(pulled, 3, "take(3) disposes the sequence, which then stops iterating")
    }

    func testLongSequenceDoesNotGrowTheStack() {
        var count = 0
        var completed = false
        _ = Observable.from(Array(0..<200_000)).subscribe(onNext: { _ in count += 1 }, onCompleted: { completed = true })
        XCTAssertEqual(count, 200_000)
        XCTAssertTrue(completed)
    }

    func testLongSequencesInterleavedThroughTheTrampolineDoNotGrowTheStack() {
        var a = 0
        var b = 0
        var lastOrder: [String] = []
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            _ = Observable.from(Array(0..<100_000)).subscribe(onNext: { _ in a += 1; lastOrder.append("a"); if lastOrder.count > 4 { lastOrder.removeFirst() } })
            _ = Observable.from(Array(0..<100_000)).subscribe(onNext: { _ in b += 1; lastOrder.append("b"); if lastOrder.count > 4 { lastOrder.removeFirst() } })
            return Disposables.create()
        }
        XCTAssertEqual(a, 100_000)
        XCTAssertEqual(b, 100_000)
        XCTAssertEqual(lastOrder, ["a", "b", "a", "b"], "the two sequences alternate step by step")
    }

    func testSubscribingFromInsideOnNextIsQueuedBehindTheRunningSequence() {
        // Element 1's handler subscribes another `of`: its first step is queued before
        // the running sequence's next step (which is queued only after the handler
        // returns), and from then on the two alternate, as with RxSwift's per-step queuing.
        var log: [String] = []
        _ = Observable.of(1, 2, 3).subscribe(onNext: { value in
            log.append("outer\(value)")
            if value == 1 {
                _ = Observable.of(10, 20).subscribe(onNext: { log.append("inner\($0)") })
            }
        })
        XCTAssertEqual(log, ["outer1", "inner10", "outer2", "inner20", "outer3"])
    }
}
