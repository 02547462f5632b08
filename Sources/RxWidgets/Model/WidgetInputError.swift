/// Why user input could not be applied to a widget.
///
/// The server answers the client with `code` (stable, machine-readable) and `message`
/// (readable); the session goes on.
public struct WidgetInputError: Error, Equatable, CustomStringConvertible {
    /// What was wrong; the raw values are the wire protocol's error codes.
    public enum Code: String, Sendable {
        /// The widget has no property of that name that a user can set.
        case unknownProperty = "unknown-property"
        /// The widget does not send that event (or the name is not a `Control.Event`).
        case unknownEvent = "unknown-event"
        /// The value has the wrong type or is out of range.
        case badValue = "bad-value"
        /// The control is disabled (`isEnabled == false`), as UIKit ignores touches then.
        case disabled = "disabled"
        /// A row event named a row key the table does not have.
        case unknownRow = "unknown-row"
        /// An alert event named an action the alert does not have.
        case unknownAction = "unknown-action"
        /// A destination index (a moved row's) outside the section.
        case indexOutOfRange = "index-out-of-range"
    }

    /// What was wrong.
    public let code: Code
    /// A readable explanation naming the widget, property or event, and the value.
    public let message: String

    /// An error with `code` and `message`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `code: message`.
    public var description: String {
        "\(code.rawValue): \(message)"
    }
}
