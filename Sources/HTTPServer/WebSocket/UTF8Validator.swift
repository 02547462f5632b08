/// An incremental UTF-8 validator (RFC 3629): feed a message's bytes in any number of
/// pieces, split anywhere, even inside a code point.
///
/// It fails fast: ``validate(_:)`` returns `false` at the first byte that cannot start or
/// continue a valid sequence, so a text message split across fragments is rejected as soon
/// as the bad prefix arrives (what RFC 6455 §8.1 asks and Autobahn's cases 6.x check).
/// Overlong forms, UTF-16 surrogates (U+D800–U+DFFF) and code points above U+10FFFF are
/// invalid. A message is valid when every piece validated and ``isComplete`` holds at
/// the end (no code point cut short).
///
/// A value type of four bytes; no allocation.
public struct UTF8Validator: Sendable {
    /// Continuation bytes still expected for the current code point.
    private var remaining: UInt8 = 0
    /// The range the next continuation byte must fall in (narrower than 0x80...0xBF right
    /// after E0, ED, F0 and F4, which is how overlongs, surrogates and > U+10FFFF are caught).
    private var lower: UInt8 = 0x80
    private var upper: UInt8 = 0xBF

    /// A validator at the start of a message.
    public init() {}

    /// `true` when the bytes so far end on a code point boundary.
    public var isComplete: Bool { remaining == 0 }

    /// Starts over for a new message.
    public mutating func reset() { self = UTF8Validator() }

    /// Validates the next piece; `false` as soon as the bytes so far cannot be the prefix
    /// of valid UTF-8 (then the validator's state is meaningless; reset it).
    public mutating func validate(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        var index = 0
        while index < count {
            if remaining == 0 {
                // ASCII fast path: eight bytes at a time while none has the top bit.
                while index + 8 <= count,
                      (base + index).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                    index += 8
                }
                guard index < count else { break }
                let byte = base.load(fromByteOffset: index, as: UInt8.self)
                index += 1
                switch byte {
                case 0x00...0x7F: continue
                case 0xC2...0xDF: remaining = 1; lower = 0x80; upper = 0xBF
                case 0xE0: remaining = 2; lower = 0xA0; upper = 0xBF
                case 0xE1...0xEC, 0xEE...0xEF: remaining = 2; lower = 0x80; upper = 0xBF
                case 0xED: remaining = 2; lower = 0x80; upper = 0x9F
                case 0xF0: remaining = 3; lower = 0x90; upper = 0xBF
                case 0xF1...0xF3: remaining = 3; lower = 0x80; upper = 0xBF
                case 0xF4: remaining = 3; lower = 0x80; upper = 0x8F
                default: return false  // 0x80–0xC1 (stray continuation, overlong lead), 0xF5–0xFF
                }
            } else {
                let byte = base.load(fromByteOffset: index, as: UInt8.self)
                index += 1
                guard byte >= lower && byte <= upper else { return false }
                remaining -= 1
                lower = 0x80
                upper = 0xBF
            }
        }
        return true
    }

    /// Validates the next piece from an array. See ``validate(_:)-(UnsafeRawBufferPointer)``.
    public mutating func validate(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { validate($0) }
    }

    /// `true` when `bytes` is one complete, valid UTF-8 string.
    public static func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var validator = UTF8Validator()
        return validator.validate(bytes) && validator.isComplete
    }

    /// `true` when `bytes` is one complete, valid UTF-8 string.
    public static func isValid(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { isValid($0) }
    }
}
