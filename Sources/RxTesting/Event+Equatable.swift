import Foundation
import RxCore

/// Events compare as in RxTest: `next` by element, `completed` always equal, and errors
/// equal when their `NSError` domain and code and their descriptions are equal.
extension Event: Equatable where Element: Equatable {
    /// `true` when both are the same kind with equal contents.
    public static func == (lhs: Event<Element>, rhs: Event<Element>) -> Bool {
        switch (lhs, rhs) {
        case (.completed, .completed):
            return true
        case (.error(let left), .error(let right)):
            return errorsEqual(left, right)
        case (.next(let left), .next(let right)):
            return left == right
        default:
            return false
        }
    }
}

/// RxTest's error equality: same `NSError` domain and code, same description.
func errorsEqual(_ left: Swift.Error, _ right: Swift.Error) -> Bool {
    let (a, b) = (left as NSError, right as NSError)
    return a.domain == b.domain && a.code == b.code && "\(left)" == "\(right)"
}
