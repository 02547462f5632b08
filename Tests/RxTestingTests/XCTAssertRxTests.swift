import RxCore
@testable import RxTesting
import XCTest

final class XCTAssertRxTests: XCTestCase {
    struct Failure: Error {}

    func testRecordedEventsOfArraysCompare() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(240)])
        let res = scheduler.start { xs.buffer(timeSpan: .seconds(100), count: 2, scheduler: scheduler) }
        XCTAssertEqual(res.events, [.next(220, [1, 2]), .next(240, [3]), .completed(240)])
    }

    func testRecordedEventsOfOptionalsCompare() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, "1"), .next(220, "x"), .completed(230)])
        let res = scheduler.start { xs.map { Int($0) } }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, nil), .completed(230)])
    }

    func testPlainEventListsCompare() {
        let events: [Event<Int>] = [.next(1), .error(Failure())]
        XCTAssertEqual(events, [.next(1), .error(Failure())])
        XCTAssertNotNil(sequenceDifference(events, [.next(1), .completed]))
    }

    func testDifferenceNamesTheFirstDifferingIndex() {
        let got: [Recorded<Event<Int>>] = [.next(210, 1), .next(220, 2)]
        let expected: [Recorded<Event<Int>>] = [.next(210, 1), .next(221, 2)]
        XCTAssertNil(sequenceDifference(got, got))
        let message = sequenceDifference(got, expected)
        XCTAssertTrue(message?.hasPrefix("events differ at index 1: got next(2) @ 220, expected next(2) @ 221") == true, message ?? "")
        let shorter = sequenceDifference(got, Array(got.prefix(1)))
        XCTAssertTrue(shorter?.hasPrefix("events differ at index 1: got next(2) @ 220, expected (none)") == true, shorter ?? "")
    }

    func testRecordedElementsIgnoresTimesButFailsOnStopEvents() {
        let elements: [Recorded<Event<Int>>] = [.next(210, 1), .next(300, 2)]
        XCTAssertRecordedElements(elements, [1, 2])
        XCTAssertNil(recordedElementsFailure(elements, [1, 2]))
        XCTAssertNotNil(recordedElementsFailure(elements, [2, 1]))
        let stopped = elements + [.completed(400)]
        XCTAssertEqual(recordedElementsFailure(stopped, [1, 2]), "A non-next stop event has been emitted: completed @ 400")
        XCTAssertNotNil(recordedElementsFailure(elements + [.error(400, Failure())], [1, 2]))
    }
}
