import BinderyProtocol
import BinderyRuntime
import Foundation

/// A view controller whose state survives a move to another process: UIKit's state
/// restoration pair, for scenes registered with ``SceneRestoration/encoded``.
///
/// ```swift
/// extension DateViewController: StateRestoring {
///     func encodeRestorableState(with coder: StateCoder) {
///         coder.encode(dateField.text, forKey: "date")
///     }
///     func decodeRestorableState(with coder: StateCoder) {
///         dateField.text = coder.decodeObject(forKey: "date") as? String
///     }
/// }
/// ```
public protocol StateRestoring: AnyObject {
    /// Writes what is needed to rebuild the scene into `coder` (after each acknowledged
    /// event; keep it small).
    func encodeRestorableState(with coder: StateCoder)
    /// Reads it back into a freshly loaded view controller.
    func decodeRestorableState(with coder: StateCoder)
}

/// A keyed archive with `NSCoder`'s keyed API (`encode(_:forKey:)`,
/// `decodeObject(forKey:)`, `decodeInteger(forKey:)`...), stored as one JSON object.
/// Values: strings, numbers, Booleans, dates (as seconds since 1970), arrays of strings,
/// and nil. Loop-confined.
public final class StateCoder {
    private var values: [String: JSONValue]
    private var order: [String]

    /// An empty coder, to encode into.
    public init() {
        values = [:]
        order = []
    }

    /// A coder reading `json` (an object as ``json`` wrote it); nil when it is not one.
    public init?(json: String) {
        guard let parsed = try? JSONValue.parse(json), case .object(let members) = parsed else { return nil }
        values = [:]
        order = []
        for member in members { set(member.value, forKey: member.key) }
    }

    private func set(_ value: JSONValue, forKey key: String) {
        if values.updateValue(value, forKey: key) == nil { order.append(key) }
    }

    /// Encodes a string, or nil.
    public func encode(_ value: String?, forKey key: String) { set(value.map(JSONValue.string) ?? .null, forKey: key) }
    /// Encodes an integer.
    public func encode(_ value: Int, forKey key: String) { set(.number(Double(value)), forKey: key) }
    /// Encodes a double.
    public func encode(_ value: Double, forKey key: String) { set(.number(value), forKey: key) }
    /// Encodes a Boolean.
    public func encode(_ value: Bool, forKey key: String) { set(.bool(value), forKey: key) }
    /// Encodes a date (to the millisecond).
    public func encode(_ value: Date?, forKey key: String) {
        set(value.map { .object([JSONMember(key: "$date", value: .number($0.timeIntervalSince1970))]) } ?? .null, forKey: key)
    }
    /// Encodes an array of strings.
    public func encode(_ value: [String], forKey key: String) { set(.array(value.map(JSONValue.string)), forKey: key) }

    /// Whether `key` was encoded (as `NSCoder.containsValue(forKey:)`).
    public func containsValue(forKey key: String) -> Bool { values[key] != nil }

    /// The value under `key` as Foundation would hand it back: `String`, `Double`,
    /// `Bool`, `Date`, `[String]`, or nil.
    public func decodeObject(forKey key: String) -> Any? {
        switch values[key] {
        case .string(let text)?: return text
        case .number(let number)?: return number
        case .bool(let flag)?: return flag
        case .array(let items)?: return items.compactMap(\.stringValue)
        case .object(let members)?:
            if let first = members.first, first.key == "$date", let seconds = first.value.numberValue {
                return Date(timeIntervalSince1970: seconds)
            }
            return nil
        default: return nil
        }
    }

    /// The integer under `key`; 0 when absent (as `NSCoder`).
    public func decodeInteger(forKey key: String) -> Int { Int(exactly: values[key]?.numberValue?.rounded() ?? 0) ?? 0 }
    /// The double under `key`; 0 when absent.
    public func decodeDouble(forKey key: String) -> Double { values[key]?.numberValue ?? 0 }
    /// The Boolean under `key`; false when absent.
    public func decodeBool(forKey key: String) -> Bool { values[key]?.boolValue ?? false }

    /// The archive as one JSON object, keys in the order first encoded.
    public var json: String {
        JSONValue.object(order.map { JSONMember(key: $0, value: values[$0] ?? .null) }).jsonText
    }
}
