/// A strict, allocation-light JSON reader (RFC 8259) over UTF-8 bytes.
///
/// Strict: no comments, trailing commas, single quotes, leading zeros, `NaN`, control
/// characters in strings, invalid UTF-8 or lone surrogate escapes; nesting is limited
/// to ``maxDepth``; duplicate object keys are rejected. A pure value type over a byte
/// buffer (no globals, no I/O), so it is easy to fuzz.
///
/// It reads either a whole ``JSONValue`` or, for the protocol's hot path, an object
/// member by member (``parseObject(_:)``) so that a message is decoded without building
/// a tree.
public struct JSONParser {
    /// The deepest nesting of arrays and objects accepted.
    public static let maxDepth = 64

    private let bytes: UnsafeBufferPointer<UInt8>
    /// The current byte offset.
    public private(set) var offset = 0
    private var depth = 0

    /// A reader at the start of `bytes` (which must outlive it).
    public init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    // MARK: - Structure

    /// Reads one value of any kind.
    public mutating func parseValue() throws(JSONError) -> JSONValue {
        skipWhitespace()
        guard offset < bytes.count else { throw error("unexpected end of input") }
        switch bytes[offset] {
        case UInt8(ascii: "{"):
            var members: [JSONMember] = []
            try parseObject { key, parser throws(JSONError) in
                if members.contains(where: { $0.key == key }) {
                    throw parser.error("duplicate key \"\(key)\"")
                }
                members.append(JSONMember(key: key, value: try parser.parseValue()))
            }
            return .object(members)
        case UInt8(ascii: "["):
            var elements: [JSONValue] = []
            try parseArray { parser throws(JSONError) in elements.append(try parser.parseValue()) }
            return .array(elements)
        case UInt8(ascii: "\""):
            return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try parseNumber())
        default:
            throw error("unexpected character \(describe(bytes[offset]))")
        }
    }

    /// Reads an object, calling `member` with each key; `member` must read the value
    /// (``parseValue()``, ``skipValue()`` or a typed reader). Duplicate keys are the
    /// caller's to check.
    public mutating func parseObject(_ member: (String, inout JSONParser) throws(JSONError) -> Void) throws(JSONError) {
        try parseObject(keyBytes: { key, parser throws(JSONError) in
            try member(String(decoding: key, as: UTF8.self), &parser)
        })
    }

    /// Reads an object as ``parseObject(_:)`` does, giving each key as its UTF-8 bytes
    /// (valid during the call only): a key without escapes costs no `String`.
    public mutating func parseObject(keyBytes member: (UnsafeBufferPointer<UInt8>, inout JSONParser) throws(JSONError) -> Void) throws(JSONError) {
        skipWhitespace()
        try expect(UInt8(ascii: "{"), "expected an object")
        try enter()
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            offset += 1
            depth -= 1
            return
        }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw error("expected a string key") }
            if let key = plainKey() {
                skipWhitespace()
                try expect(UInt8(ascii: ":"), "expected ':'")
                try member(key, &self)
            } else {
                var key = try parseString()
                skipWhitespace()
                try expect(UInt8(ascii: ":"), "expected ':'")
                // withUTF8 rethrows untyped: carry the error out by hand.
                var failure: JSONError?
                key.withUTF8 { bytes in
                    do throws(JSONError) { try member(bytes, &self) } catch { failure = error }
                }
                if let failure { throw failure }
            }
            skipWhitespace()
            guard offset < bytes.count else { throw error("unterminated object") }
            let byte = bytes[offset]
            offset += 1
            if byte == UInt8(ascii: "}") { break }
            guard byte == UInt8(ascii: ",") else {
                offset -= 1
                throw error("expected ',' or '}'")
            }
        }
        depth -= 1
    }

    /// Reads an array, calling `element` for each element (which must read it).
    public mutating func parseArray(_ element: (inout JSONParser) throws(JSONError) -> Void) throws(JSONError) {
        skipWhitespace()
        try expect(UInt8(ascii: "["), "expected an array")
        try enter()
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            offset += 1
            depth -= 1
            return
        }
        while true {
            try element(&self)
            skipWhitespace()
            guard offset < bytes.count else { throw error("unterminated array") }
            let byte = bytes[offset]
            offset += 1
            if byte == UInt8(ascii: "]") { break }
            guard byte == UInt8(ascii: ",") else {
                offset -= 1
                throw error("expected ',' or ']'")
            }
        }
        depth -= 1
    }

    /// Reads and discards one value (still fully validated).
    public mutating func skipValue() throws(JSONError) {
        _ = try parseValue()
    }

    /// Checks that only whitespace is left.
    public mutating func expectEnd() throws(JSONError) {
        skipWhitespace()
        if offset < bytes.count { throw error("unexpected data after the value") }
    }

    /// The kind of the next value: `{`, `[`, `"`, `t`, `f`, `n`, or a digit/`-`; nil at the end.
    public mutating func peekValueStart() -> UInt8? {
        skipWhitespace()
        return peek()
    }

    // MARK: - Scalars

    /// Reads a string that is plain ASCII (no escapes, no control characters) and returns
    /// its bytes (valid while the input is); for anything else, including a value that is
    /// not a string, reads nothing and returns nil.
    public mutating func parsePlainString() -> UnsafeBufferPointer<UInt8>? {
        skipWhitespace()
        guard peek() == UInt8(ascii: "\"") else { return nil }
        return plainKey()
    }

    /// At a `"`: an ASCII key without escapes or control characters is consumed and
    /// returned as bytes; anything else is left for ``parseString()`` (nil).
    private mutating func plainKey() -> UnsafeBufferPointer<UInt8>? {
        guard let base = bytes.baseAddress else { return nil }
        var end = offset + 1
        while end < bytes.count {
            let byte = base[end]
            if byte == UInt8(ascii: "\"") {
                let key = UnsafeBufferPointer(rebasing: bytes[(offset + 1)..<end])
                offset = end + 1
                return key
            }
            guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { return nil }
            end += 1
        }
        return nil
    }

    /// Whether any byte of `word` is below 0x20, at or above 0x80, `"` or `\\` (the
    /// bytes a string's fast scan stops at). Exact: no false positives.
    @inline(__always)
    package static func hasSpecialByte(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        // Per byte, with the high bit cleared first so no subtraction borrows across bytes:
        // the high bit of `x + (0x80 - n)` is set when x >= n.
        let low = word & ~highs
        let notControl = low &+ ones &* (0x80 - 0x20)          // set when byte >= 0x20
        let quote = (low ^ (ones &* 0x22)) &+ ones &* 0x7F     // set when byte != '"'
        let backslash = (low ^ (ones &* 0x5C)) &+ ones &* 0x7F // set when byte != '\\'
        let plain = notControl & quote & backslash & ~word & highs
        return plain != highs
    }

    /// Reads a string.
    public mutating func parseString() throws(JSONError) -> String {
        skipWhitespace()
        try expect(UInt8(ascii: "\""), "expected a string")
        let start = offset
        var asciiOnly = true
        // Fast path: no escapes. Plain bytes are skipped without bounds checks.
        if let base = bytes.baseAddress {
            var index = offset
            let end = bytes.count
            // Eight bytes at a time while none is a quote, a backslash, a control or a
            // non-ASCII byte (each string of each message passes here).
            while index + 8 <= end {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                if Self.hasSpecialByte(word) { break }
                index += 8
            }
            while index < end {
                let byte = base[index]
                if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { break }
                if byte >= 0x80 { asciiOnly = false }
                index += 1
            }
            offset = index
        }
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                let raw = UnsafeBufferPointer(rebasing: bytes[start..<offset])
                offset += 1
                if asciiOnly { return String(decoding: raw, as: UTF8.self) }
                guard let string = String(validating: raw, as: UTF8.self) else {
                    offset = start
                    throw error("invalid UTF-8 in a string")
                }
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("control character in a string") }
            if byte >= 0x80 { asciiOnly = false }
            offset += 1
        }
        guard offset < bytes.count else { throw error("unterminated string") }
        // Slow path: escapes. Collect bytes, validate at the end.
        var buffer = Array(UnsafeBufferPointer(rebasing: bytes[start..<offset]))
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                offset += 1
                guard let string = String(validating: buffer, as: UTF8.self) else {
                    throw error("invalid UTF-8 in a string")
                }
                return string
            }
            if byte < 0x20 { throw error("control character in a string") }
            if byte != UInt8(ascii: "\\") {
                buffer.append(byte)
                offset += 1
                continue
            }
            offset += 1
            guard offset < bytes.count else { break }
            let escape = bytes[offset]
            offset += 1
            switch escape {
            case UInt8(ascii: "\""): buffer.append(0x22)
            case UInt8(ascii: "\\"): buffer.append(0x5C)
            case UInt8(ascii: "/"): buffer.append(0x2F)
            case UInt8(ascii: "b"): buffer.append(0x08)
            case UInt8(ascii: "f"): buffer.append(0x0C)
            case UInt8(ascii: "n"): buffer.append(0x0A)
            case UInt8(ascii: "r"): buffer.append(0x0D)
            case UInt8(ascii: "t"): buffer.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try parseHex4()
                if (0xD800..<0xDC00).contains(scalar) {
                    guard offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u") else {
                        throw error("lone surrogate escape")
                    }
                    offset += 2
                    let low = try parseHex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw error("lone surrogate escape") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00..<0xE000).contains(scalar) {
                    throw error("lone surrogate escape")
                }
                appendUTF8(scalar, to: &buffer)
            default:
                offset -= 1
                throw error("invalid escape \\\(describe(escape))")
            }
        }
        throw error("unterminated string")
    }

    /// Reads a number.
    public mutating func parseNumber() throws(JSONError) -> Double {
        skipWhitespace()
        let start = offset
        var negative = false
        if peek() == UInt8(ascii: "-") {
            negative = true
            offset += 1
        }
        guard let first = peek(), isDigit(first) else { throw error("expected a digit") }
        var integer: UInt64 = 0
        var digits = 0
        if first == UInt8(ascii: "0") {
            offset += 1
            if let next = peek(), isDigit(next) { throw error("leading zero in a number") }
        } else {
            while let byte = peek(), isDigit(byte) {
                if digits < 18 { integer = integer * 10 + UInt64(byte - UInt8(ascii: "0")) }
                digits += 1
                offset += 1
            }
        }
        var simple = digits <= 15
        if peek() == UInt8(ascii: ".") {
            simple = false
            offset += 1
            guard let byte = peek(), isDigit(byte) else { throw error("expected a digit after '.'") }
            while let byte = peek(), isDigit(byte) { offset += 1 }
        }
        if let byte = peek(), byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            simple = false
            offset += 1
            if let sign = peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { offset += 1 }
            guard let byte = peek(), isDigit(byte) else { throw error("expected a digit in the exponent") }
            while let byte = peek(), isDigit(byte) { offset += 1 }
        }
        if simple {
            let value = Double(integer)
            return negative ? -value : value
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            offset = start
            throw error("number out of range")
        }
        return value
    }

    // MARK: - Helpers

    /// An error at the current offset.
    public func error(_ reason: String) -> JSONError {
        JSONError(reason, at: offset)
    }

    private mutating func enter() throws(JSONError) {
        depth += 1
        if depth > Self.maxDepth { throw error("nesting deeper than \(Self.maxDepth)") }
    }

    private func peek() -> UInt8? {
        offset < bytes.count ? bytes[offset] : nil
    }

    private mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x09, 0x0A, 0x0D: offset += 1
            default: return
            }
        }
    }

    private mutating func expect(_ byte: UInt8, _ message: String) throws(JSONError) {
        guard offset < bytes.count, bytes[offset] == byte else { throw error(message) }
        offset += 1
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONError) {
        let count = literal.utf8CodeUnitCount
        guard offset + count <= bytes.count else { throw error("unexpected end of input") }
        let pointer = literal.utf8Start
        for index in 0..<count where bytes[offset + index] != pointer[index] {
            throw error("invalid literal")
        }
        offset += count
        if let next = peek(), isLetterOrDigit(next) { throw error("invalid literal") }
    }

    private mutating func parseHex4() throws(JSONError) -> UInt32 {
        guard offset + 4 <= bytes.count else { throw error("short \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[offset]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid \\u escape")
            }
            value = value << 4 | digit
            offset += 1
        }
        return value
    }

    private func appendUTF8(_ scalar: UInt32, to buffer: inout [UInt8]) {
        switch scalar {
        case ..<0x80:
            buffer.append(UInt8(scalar))
        case ..<0x800:
            buffer.append(UInt8(0xC0 | (scalar >> 6)))
            buffer.append(UInt8(0x80 | (scalar & 0x3F)))
        case ..<0x10000:
            buffer.append(UInt8(0xE0 | (scalar >> 12)))
            buffer.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            buffer.append(UInt8(0x80 | (scalar & 0x3F)))
        default:
            buffer.append(UInt8(0xF0 | (scalar >> 18)))
            buffer.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
            buffer.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            buffer.append(UInt8(0x80 | (scalar & 0x3F)))
        }
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private func isLetterOrDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
    }

    private func describe(_ byte: UInt8) -> String {
        byte >= 0x21 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "0x" + String(byte, radix: 16)
    }
}
