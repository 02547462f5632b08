/// A sequence event: `next* (error | completed)?`.
///
/// Nothing follows the first terminal event (`error` or `completed`).
@frozen
public enum Event<Element> {
    /// The next element of the sequence.
    case next(Element)
    /// The sequence ended with an error.
    case error(Swift.Error)
    /// The sequence ended normally.
    case completed
}

extension Event: CustomDebugStringConvertible {
    /// A description such as `next(1)`, `error(…)` or `completed`.
    public var debugDescription: String {
        switch self {
        case .next(let value): return "next(\(value))"
        case .error(let error): return "error(\(error))"
        case .completed: return "completed"
        }
    }
}

extension Event {
    /// `true` for `error` and `completed`.
    public var isStopEvent: Bool {
        switch self {
        case .next: return false
        case .error, .completed: return true
        }
    }

    /// The element of a `next` event, else `nil`.
    public var element: Element? {
        if case .next(let value) = self { return value }
        return nil
    }

    /// The error of an `error` event, else `nil`.
    public var error: Swift.Error? {
        if case .error(let error) = self { return error }
        return nil
    }

    /// `true` for `completed`.
    public var isCompleted: Bool {
        if case .completed = self { return true }
        return false
    }

    /// Maps the element of a `next` event; a throwing transform gives an `error` event.
    public func map<Result>(_ transform: (Element) throws -> Result) -> Event<Result> {
        do {
            switch self {
            case .next(let element): return .next(try transform(element))
            case .error(let error): return .error(error)
            case .completed: return .completed
            }
        } catch {
            return .error(error)
        }
    }
}

/// Something that can be turned into an event (RxSwift's `EventConvertible`, used by `dematerialize`).
public protocol EventConvertible {
    /// The element type of the event.
    associatedtype Element
    /// The event itself.
    var event: Event<Element> { get }
}

extension Event: EventConvertible {
    /// The event itself.
    public var event: Event<Element> { self }
}
