/// Errors raised by Rx itself.
public enum RxError: Swift.Error, @unchecked Sendable, CustomDebugStringConvertible {
    /// An unknown error.
    case unknown
    /// An operation on a disposed object.
    case disposed(object: AnyObject)
    /// Arithmetic overflow.
    case overflow
    /// An argument was out of range.
    case argumentOutOfRange
    /// The sequence has no elements.
    case noElements
    /// The sequence has more than one element.
    case moreThanOneElement
    /// `timeout` expired.
    case timeout

    /// A readable description.
    public var debugDescription: String {
        switch self {
        case .unknown: return "Unknown error occurred."
        case .disposed(let object): return "Object `\(object)` was already disposed."
        case .overflow: return "Arithmetic overflow occurred."
        case .argumentOutOfRange: return "Argument out of range."
        case .noElements: return "Sequence doesn't contain any elements."
        case .moreThanOneElement: return "Sequence contains more than one element."
        case .timeout: return "Sequence timeout."
        }
    }
}
