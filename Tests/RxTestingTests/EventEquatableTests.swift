import Foundation
import RxCore
import RxTesting
import XCTest

final class EventEquatableTests: XCTestCase {
    enum Failure: Error { case first, second }
    struct Described: Error, CustomStringConvertible {
        let description: String
    }

    func testNextComparesElementsAndCompletedAlwaysEquals() {
        XCTAssertEqual(Event.next(1), Event.next(1))
        XCTAssertNotEqual(Event.next(1), Event.next(2))
        XCTAssertEqual(Event<Int>.completed, Event<Int>.completed)
        XCTAssertNotEqual(Event.next(1), Event<Int>.completed)
    }

    func testErrorsCompareByDomainCodeAndDescription() {
        XCTAssertEqual(Event<Int>.error(Failure.first), Event<Int>.error(Failure.first))
        XCTAssertNotEqual(Event<Int>.error(Failure.first), Event<Int>.error(Failure.second))
        XCTAssertEqual(Event<Int>.error(Described(description: "a")), Event<Int>.error(Described(description: "a")))
        XCTAssertNotEqual(Event<Int>.error(Described(description: "a")), Event<Int>.error(Described(description: "b")))
        let nsError = NSError(domain: "D", code: 1)
        XCTAssertEqual(Event<Int>.error(nsError), Event<Int>.error(NSError(domain: "D", code: 1)))
        XCTAssertNotEqual(Event<Int>.error(nsError), Event<Int>.error(NSError(domain: "D", code: 2)))
        XCTAssertNotEqual(Event<Int>.error(nsError), Event<Int>.error(NSError(domain: "E", code: 1)))
        XCTAssertNotEqual(Event<Int>.error(Failure.first), Event<Int>.next(1))
    }

    func testOptionalAndArrayElements() {
        XCTAssertEqual(Event<Int?>.next(nil), Event<Int?>.next(nil))
        XCTAssertNotEqual(Event<Int?>.next(nil), Event<Int?>.next(0))
        XCTAssertEqual(Event.next([1, 2]), Event.next([1, 2]))
        XCTAssertNotEqual(Event.next([1, 2]), Event.next([2, 1]))
    }
}
