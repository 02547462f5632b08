/// A parsed JSON value (RFC 8259). Objects keep their members in order.
public enum JSONValue: Equatable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number (every JSON number is read as a `Double`).
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object: its members in document order (duplicate keys are rejected).
    case object([JSONMember])

    /// The value of member `key` of an object; nil for a missing key or a non-object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The element at `index` of an array; nil when out of range or not an array.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// The string, if this is one.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number, if this is one.
    public var numberValue: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The Boolean, if this is one.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// Parses `text` as one JSON value (whitespace around it allowed, nothing else).
    public static func parse(_ text: String) throws(JSONError) -> JSONValue {
        var text = text
        let result: Result<JSONValue, JSONError> = text.withUTF8 { bytes in
            do throws(JSONError) { return .success(try parse(bytes)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Parses UTF-8 `bytes` as one JSON value; invalid UTF-8 is an error.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONError) -> JSONValue {
        var parser = JSONParser(bytes)
        let value = try parser.parseValue()
        try parser.expectEnd()
        return value
    }

    /// Parses UTF-8 `bytes` as one JSON value.
    public static func parse(_ bytes: [UInt8]) throws(JSONError) -> JSONValue {
        let result: Result<JSONValue, JSONError> = bytes.withUnsafeBufferPointer { buffer in
            do throws(JSONError) { return .success(try parse(buffer)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// This value as compact JSON text.
    public var jsonText: String {
        var writer = JSONWriter()
        writer.value(self)
        return writer.text
    }
}

/// One member of a JSON object.
public struct JSONMember: Equatable, Sendable {
    /// The key.
    public var key: String
    /// The value.
    public var value: JSONValue

    /// A member.
    public init(key: String, value: JSONValue) {
        self.key = key
        self.value = value
    }
}

/// Why text is not JSON: a readable reason and the byte offset where it was found.
public struct JSONError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public let reason: String
    /// The byte offset in the input.
    public let offset: Int

    /// An error.
    public init(_ reason: String, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    /// `reason at byte N`.
    public var description: String { "\(reason) at byte \(offset)" }
}
