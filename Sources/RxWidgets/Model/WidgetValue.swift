import Foundation

/// A widget property's value as the layer above sees it: a small closed set of types
/// that the server can encode (JSON, in Bindery's wire protocol) without knowing the
/// widgets.
public enum WidgetValue: Hashable, Sendable {
    /// No value (`nil`).
    case null
    /// A Boolean (`isEnabled`, `isOn`, ...).
    case bool(Bool)
    /// A number (`value`, `alpha`, `selectedSegmentIndex`, ...).
    case number(Double)
    /// A string (`text`, `title`, `image` as a URL, ...).
    case string(String)
    /// A colour (`backgroundColor`, `textColor`); encoded as lowercase `#rrggbbaa`.
    case color(Color)
    /// A point in time (`date`).
    case date(Date)
    /// A list of strings (`segments`).
    case strings([String])
    /// A list view's keyed rows (`items`).
    case rows([ListRow])
}

extension WidgetValue: CustomStringConvertible {
    /// A short readable form, for logs and error messages.
    public var description: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return String(value)
        case .number(let value): return String(value)
        case .string(let value): return "\"\(value)\""
        case .color(let value): return value.hexString
        case .date(let value): return value.formatted(.iso8601)
        case .strings(let value): return String(describing: value)
        case .rows(let value): return "\(value.count) rows"
        }
    }

    /// The type's name, for error messages ("expected a number, got a string").
    var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .color: return "a colour"
        case .date: return "a date"
        case .strings: return "a list of strings"
        case .rows: return "a list of rows"
        }
    }
}

// Conversions used by the widgets when they record a change.
extension WidgetValue {
    init(_ value: String?) {
        self = value.map(WidgetValue.string) ?? .null
    }

    init(_ value: Color?) {
        self = value.map(WidgetValue.color) ?? .null
    }

    init(_ value: Float) {
        self = .number(value.decimalDouble)
    }

    init(_ value: CGFloat) {
        self = .number(Double(value))
    }
}

extension Float {
    /// The `Double` with this float's shortest decimal form: `Float(0.3)` gives `0.3`,
    /// not `0.30000001192092896`, so a value a client sent comes back equal to itself.
    var decimalDouble: Double {
        Double(description) ?? Double(self)
    }
}
