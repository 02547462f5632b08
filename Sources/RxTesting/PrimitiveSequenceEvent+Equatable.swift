import Foundation
import RxCore
import XCTest

// RxTest's comparisons of the traits' events: elements by `==`, errors by domain, code
// and description (as `Event`'s).

private func sameError(_ left: Swift.Error, _ right: Swift.Error) -> Bool {
    let (a, b) = (left as NSError, right as NSError)
    return a.domain == b.domain && a.code == b.code && "\(left)" == "\(right)"
}

/// `true` when both are the same kind with equal contents.
public func == <Element: Equatable>(lhs: SingleEvent<Element>, rhs: SingleEvent<Element>) -> Bool {
    switch (lhs, rhs) {
    case (.success(let left), .success(let right)): return left == right
    case (.failure(let left), .failure(let right)): return sameError(left, right)
    default: return false
    }
}

extension MaybeEvent: Equatable where Element: Equatable {
    /// `true` when both are the same kind with equal contents.
    public static func == (lhs: MaybeEvent<Element>, rhs: MaybeEvent<Element>) -> Bool {
        switch (lhs, rhs) {
        case (.success(let left), .success(let right)): return left == right
        case (.error(let left), .error(let right)): return sameError(left, right)
        case (.completed, .completed): return true
        default: return false
        }
    }
}

extension CompletableEvent: Equatable {
    /// `true` when both are the same kind with equal contents.
    public static func == (lhs: CompletableEvent, rhs: CompletableEvent) -> Bool {
        switch (lhs, rhs) {
        case (.error(let left), .error(let right)): return sameError(left, right)
        case (.completed, .completed): return true
        default: return false
        }
    }
}

/// Asserts two lists of single events are equal (`SingleEvent` is a `Result` over
/// `Error`, which is not `Equatable` by itself).
public func XCTAssertEqual<T: Equatable>(
    _ lhs: [SingleEvent<T>],
    _ rhs: [SingleEvent<T>],
    file: StaticString = #filePath,
    line: UInt = #line
) {
    let equal = lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { $0 == $1 }
    XCTAssertTrue(equal, "events differ:\n  got      \(lhs)\n  expected \(rhs)", file: file, line: line)
}

/// Asserts two lists of maybe events are equal, with a readable diff on failure.
public func XCTAssertEqual<T: Equatable>(
    _ lhs: [MaybeEvent<T>],
    _ rhs: [MaybeEvent<T>],
    file: StaticString = #filePath,
    line: UInt = #line
) {
    XCTAssertTrue(lhs == rhs, "events differ:\n  got      \(lhs)\n  expected \(rhs)", file: file, line: line)
}

/// Asserts two lists of completable events are equal, with a readable diff on failure.
public func XCTAssertEqual(
    _ lhs: [CompletableEvent],
    _ rhs: [CompletableEvent],
    file: StaticString = #filePath,
    line: UInt = #line
) {
    XCTAssertTrue(lhs == rhs, "events differ:\n  got      \(lhs)\n  expected \(rhs)", file: file, line: line)
}
