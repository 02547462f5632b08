/// HTTP header fields: ordered `(name, value)` pairs, looked up without regard to case.
///
/// Order and repeated names are kept as received (or as added), because some fields
/// (`Set-Cookie`) cannot be combined into one line. Lookups compare names
/// ASCII-case-insensitively (`content-length` finds `Content-Length`).
public struct HTTPHeaders: Sequence, Sendable, Equatable, CustomStringConvertible, ExpressibleByDictionaryLiteral {
    /// The fields in order.
    public private(set) var fields: [(name: String, value: String)] = []

    /// No fields.
    public init() {}

    /// The given fields, in order.
    public init(_ fields: [(String, String)]) {
        self.fields = fields.map { (name: $0.0, value: $0.1) }
    }

    /// The given fields, in literal order.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The number of fields (a repeated name counts once per line).
    public var count: Int { fields.count }

    /// `true` when there are no fields.
    public var isEmpty: Bool { fields.isEmpty }

    /// The value of the first field named `name`, or nil. Use ``values(for:)`` for fields
    /// that may repeat.
    public subscript(name: String) -> String? {
        fields.first { Self.namesMatch($0.name, name) }?.value
    }

    /// Every value of the fields named `name`, in order.
    public func values(for name: String) -> [String] {
        fields.compactMap { Self.namesMatch($0.name, name) ? $0.value : nil }
    }

    /// `true` when a field named `name` exists.
    public func contains(_ name: String) -> Bool {
        fields.contains { Self.namesMatch($0.name, name) }
    }

    /// The comma-separated elements of every `name` field, trimmed and lowercased
    /// (for list fields such as `Connection`, `Transfer-Encoding`, `Upgrade`).
    public func tokens(for name: String) -> [String] {
        values(for: name).flatMap { value in
            value.split(separator: ",").map { $0.trimmingHTTPWhitespace().lowercased() }.filter { !$0.isEmpty }
        }
    }

    /// `true` when the list field `name` contains `token` (case-insensitively).
    public func containsToken(_ token: String, in name: String) -> Bool {
        tokens(for: name).contains(token.lowercased())
    }

    /// Appends a field, keeping any existing ones with the same name.
    public mutating func add(name: String, value: String) {
        fields.append((name: name, value: value))
    }

    /// Replaces every field named `name` by one with `value` (added at the end if absent,
    /// else at the first one's place).
    public mutating func replaceOrAdd(name: String, value: String) {
        guard let index = fields.firstIndex(where: { Self.namesMatch($0.name, name) }) else {
            add(name: name, value: value)
            return
        }
        fields[index].value = value
        fields = fields.enumerated()
            .filter { $0.offset <= index || !Self.namesMatch($0.element.name, name) }
            .map(\.element)
    }

    /// Removes every field named `name`.
    public mutating func remove(name: String) {
        fields.removeAll { Self.namesMatch($0.name, name) }
    }

    /// Iterates the fields in order.
    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }

    /// Same fields in the same order; names compared case-insensitively, values exactly.
    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy { namesMatch($0.name, $1.name) && $0.value == $1.value }
    }

    /// `Name: value` lines.
    public var description: String {
        fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }

    /// ASCII case-insensitive comparison (header names are ASCII tokens).
    @inline(__always)
    static func namesMatch(_ lhs: String, _ rhs: String) -> Bool {
        let lhs = lhs.utf8, rhs = rhs.utf8
        guard lhs.count == rhs.count else { return false }
        for (a, b) in zip(lhs, rhs) where a != b {
            guard a | 0x20 == b | 0x20, (a | 0x20) >= 0x61, (a | 0x20) <= 0x7A else { return false }
        }
        return true
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs (HTTP's OWS).
    func trimmingHTTPWhitespace() -> String {
        let bytes = Array(utf8)
        var start = 0, end = bytes.count
        while start < end, bytes[start] == 32 || bytes[start] == 9 { start += 1 }
        while end > start, bytes[end - 1] == 32 || bytes[end - 1] == 9 { end -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
