import RxCore
import RxTesting
import XCTest

final class RecordedTests: XCTestCase {
    struct Failure: Error, CustomStringConvertible {
        let text: String
        var description: String { text }
    }

    func testFactoriesTakeTheElementTypeAsAnArgument() {
        // No type context: the type argument alone fixes the element type.
        let completed = Recorded.completed(250, Int.self)
        let failed = Recorded.error(260, Failure(text: "x"), String.self)
        XCTAssertTrue(type(of: completed) == Recorded<Event<Int>>.self)
        XCTAssertTrue(type(of: failed) == Recorded<Event<String>>.self)
        XCTAssertEqual(completed.time, 250)
        XCTAssertTrue(completed.value.isCompleted)
        XCTAssertEqual(failed.time, 260)
        XCTAssertEqual("\(failed.value.error!)", "x")
    }

    func testFactoriesInferTheTypeFromContext() {
        let events: [Recorded<Event<Int>>] = [.next(210, 1), .completed(250), .error(260, Failure(text: "e"))]
        XCTAssertEqual(events.map(\.time), [210, 250, 260])
        XCTAssertEqual(events[0].value.element, 1)
    }

    func testEventsBuildsAnArrayFromAListOrAnArray() {
        let list = Recorded.events(.next(210, "a"), .completed(250))
        let array = Recorded.events([.next(210, "a"), .completed(250)])
        XCTAssertEqual(list, array)
        XCTAssertEqual(list.count, 2)
    }

    func testEqualityNeedsSameTimeAndEqualEvent() {
        XCTAssertEqual(Recorded.next(210, 1), Recorded.next(210, 1))
        XCTAssertNotEqual(Recorded.next(210, 1), Recorded.next(211, 1))
        XCTAssertNotEqual(Recorded.next(210, 1), Recorded.next(210, 2))
        XCTAssertNotEqual(Recorded.next(210, 1), Recorded.completed(210))
        XCTAssertEqual(Recorded(time: 5, value: "x"), Recorded(time: 5, value: "x"))
    }

    func testDebugDescriptionIsValueAtTime() {
        XCTAssertEqual(Recorded(time: 5, value: 7).debugDescription, "7 @ 5")
    }
}
