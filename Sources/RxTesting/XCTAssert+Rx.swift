import RxCore
import XCTest

/// Asserts two event lists are equal (events compare as in `Event+Equatable.swift`); on
/// failure the message lists the events that differ.
public func XCTAssertEqual<T: Equatable>(
    _ lhs: [Event<T>],
    _ rhs: [Event<T>],
    file: StaticString = #filePath,
    line: UInt = #line
) {
    assertSequencesEqual(lhs, rhs, file: file, line: line)
}

/// Asserts two recorded-event lists are equal: same times, equal events. Arrays of
/// arrays (`[Recorded<Event<[Int]>>]`) use this too, as arrays of equatables are equatable.
public func XCTAssertEqual<T: Equatable>(
    _ lhs: [Recorded<Event<T>>],
    _ rhs: [Recorded<Event<T>>],
    file: StaticString = #filePath,
    line: UInt = #line
) {
    assertSequencesEqual(lhs, rhs, file: file, line: line)
}

/// Asserts two recorded-event lists with optional elements are equal (`nil` equals `nil`).
public func XCTAssertEqual<T: Equatable>(
    _ lhs: [Recorded<Event<T?>>],
    _ rhs: [Recorded<Event<T?>>],
    file: StaticString = #filePath,
    line: UInt = #line
) {
    assertSequencesEqual(lhs, rhs, file: file, line: line)
}

/// Asserts that `stream` holds exactly the `next` elements `elements`, ignoring times.
/// Fails if `stream` holds a `completed` or `error` event, as RxTest does.
public func XCTAssertRecordedElements<T: Equatable>(
    _ stream: [Recorded<Event<T>>],
    _ elements: [T],
    file: StaticString = #filePath,
    line: UInt = #line
) {
    if let message = recordedElementsFailure(stream, elements) {
        XCTFail(message, file: file, line: line)
    }
}

/// Why `stream` does not hold exactly the `next` elements `elements`, or `nil` when it does.
func recordedElementsFailure<T: Equatable>(_ stream: [Recorded<Event<T>>], _ elements: [T]) -> String? {
    if let stop = stream.first(where: { $0.value.isStopEvent }) {
        return "A non-next stop event has been emitted: \(stop)"
    }
    return sequenceDifference(stream.compactMap { $0.value.element }, elements)
}

private func assertSequencesEqual<E: Equatable>(_ lhs: [E], _ rhs: [E], file: StaticString, line: UInt) {
    if let message = sequenceDifference(lhs, rhs) {
        XCTFail(message, file: file, line: line)
    }
}

/// The first index where the lists differ and both lists in full, or `nil` when equal.
func sequenceDifference<E: Equatable>(_ lhs: [E], _ rhs: [E]) -> String? {
    if lhs == rhs { return nil }
    let index = zip(lhs, rhs).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(lhs.count, rhs.count)
    func item(_ list: [E]) -> String { index < list.count ? "\(list[index])" : "(none)" }
    return "events differ at index \(index): got \(item(lhs)), expected \(item(rhs))\n  got      \(lhs)\n  expected \(rhs)"
}
