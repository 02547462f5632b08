import RxCore
import XCTest

/// Asserts that the `next` elements of `stream` are `elements`, ignoring times and
/// terminal events.
public func XCTAssertRecordedElements<T: Equatable>(
    _ stream: [Recorded<Event<T>>],
    _ elements: [T],
    file: StaticString = #filePath,
    line: UInt = #line
) {
    let recorded = stream.compactMap { $0.value.element }
    XCTAssertEqual(recorded, elements, file: file, line: line)
}

/// Asserts two event lists are equal, with a readable diff on failure.
public func XCTAssertEqual<T: Equatable>(
    _ lhs: [Event<T>],
    _ rhs: [Event<T>],
    file: StaticString = #filePath,
    line: UInt = #line
) {
    XCTAssertTrue(lhs == rhs, "events differ:\n  got      \(lhs)\n  expected \(rhs)", file: file, line: line)
}

/// Asserts two recorded-event lists are equal, with a readable diff on failure.
public func XCTAssertEqual<T: Equatable>(
    _ lhs: [Recorded<Event<T>>],
    _ rhs: [Recorded<Event<T>>],
    file: StaticString = #filePath,
    line: UInt = #line
) {
    XCTAssertTrue(lhs == rhs, "events differ:\n  got      \(lhs)\n  expected \(rhs)", file: file, line: line)
}
