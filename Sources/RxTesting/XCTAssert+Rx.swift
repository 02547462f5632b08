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
    if let stop = stream.first(where: { $0.value.isStopEvent }) {
        XCTFail("A non-next stop event has been emitted: \(stop)", file: file, line: line)
        return
    }
    assertSequencesEqual(stream.compactMap { $0.value.element }, elements, file: file, line: line)
}

/// Fails with the first index where the lists differ and both lists in full.
private func assertSequencesEqual<E: Equatable>(_ lhs: [E], _ rhs: [E], file: StaticString, line: UInt) {
    if lhs == rhs { return }
    let index = zip(lhs, rhs).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(lhs.count, rhs.count)
    func item(_ list: [E]) -> String { index < list.count ? "\(list[index])" : "(none)" }
    XCTFail(
        "events differ at index \(index): got \(item(lhs)), expected \(item(rhs))\n  got      \(lhs)\n  expected \(rhs)",
        file: file, line: line
    )
}
