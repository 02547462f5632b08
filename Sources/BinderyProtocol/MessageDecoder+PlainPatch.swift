#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import RxWidgets

/// The tree-free path of ``MessageDecoder/decodeServerMessage(_:)``: a patch of plain
/// values, what nearly every event makes and a shared scene's edge reads per outbox entry.
extension MessageDecoder {
    /// The patch in `json` read straight into a ``PatchMessage``, with no JSON tree, when
    /// it is what nearly every event makes: value changes whose values are strings,
    /// numbers, booleans or null. nil for anything else (removals, additions, list
    /// operations, arrays, not a patch), which ``decodeServerMessageThroughTree(_:)`` reads.
    package static func decodePlainPatch(_ json: String) -> PatchMessage? {
        var json = json
        return json.withUTF8 { decodePlainPatch(utf8: $0) }
    }

    /// ``decodePlainPatch(_:)`` of UTF-8 bytes.
    package static func decodePlainPatch(utf8 bytes: UnsafeBufferPointer<UInt8>) -> PatchMessage? {
        var parser = JSONParser(bytes)
        var isPatch = false
        var ack: Int?
        var changes: [PatchChange] = []
        do throws(JSONError) {
            try parser.parseObject(keyBytes: { key, parser throws(JSONError) in
                if isKey(key, "type") {
                    isPatch = try parser.parseString() == "patch"
                } else if isKey(key, "ack") {
                    guard let number = Int(exactly: try parser.parseNumber()) else { throw parser.error("ack") }
                    ack = number
                } else if isKey(key, "changes") {
                    try parser.parseArray { parser throws(JSONError) in
                        changes.append(try plainChange(&parser))
                    }
                } else {
                    throw parser.error("not a plain patch")
                }
            })
            try parser.expectEnd()
        } catch {
            return nil
        }
        return isPatch ? PatchMessage(ack: ack, changes: changes) : nil
    }

    /// Whether `key` is `name` (a byte comparison, lengths first).
    private static func isKey(_ key: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
        guard key.count == name.utf8CodeUnitCount, let base = key.baseAddress else { return false }
        return memcmp(base, name.utf8Start, key.count) == 0
    }

    private static func plainChange(_ parser: inout JSONParser) throws(JSONError) -> PatchChange {
        var target: String?
        var prop: String?
        var value: WidgetValue?
        try parser.parseObject(keyBytes: { key, parser throws(JSONError) in
            if isKey(key, "target") {
                target = try parser.parseString()
            } else if isKey(key, "prop") {
                prop = try parser.parseString()
            } else if isKey(key, "value") {
                switch parser.peekValueStart() {
                case UInt8(ascii: "\""): value = .string(try parser.parseString())
                case UInt8(ascii: "{"), UInt8(ascii: "["), nil: throw parser.error("not a plain value")
                default:
                    switch try parser.parseValue() {
                    case .number(let number): value = .number(number)
                    case .bool(let bool): value = .bool(bool)
                    case .null: value = .null
                    default: throw parser.error("not a plain value")
                    }
                }
            } else {
                throw parser.error("not a plain change")
            }
        })
        guard let target, let prop, let value else { throw parser.error("an incomplete change") }
        return PatchChange(target: target, prop: prop, value: value)
    }
}
