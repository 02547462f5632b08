import Foundation
import RxCore

/// Events compare by element; errors by domain, code and description, as in RxTest.
extension Event: Equatable where Element: Equatable {
    /// `true` when both are the same kind with equal contents.
    public static func == (lhs: Event<Element>, rhs: Event<Element>) -> Bool {
        switch (lhs, rhs) {
        case (.completed, .completed):
            return true
        case (.error(let left), .error(let right)):
            let (a, b) = (left as NSError, right as NSError)
            return a.domain == b.domain && a.code == b.code && "\(left)" == "\(right)"
        case (.next(let left), .next(let right)):
            return left == right
        default:
            return false
        }
    }
}
