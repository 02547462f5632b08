/// One RESP2 value, as Redis sends it.
///
/// RESP2 has two nulls, the null bulk string (`$-1`) and the null array (`*-1`); they
/// are kept apart (`.bulkString(nil)`, `.array(nil)`) so a value encodes back to the
/// same bytes.
public enum RESPValue: Hashable, Sendable {
    /// `+OK`: a simple string (no CR or LF inside).
    case simpleString(String)
    /// `-ERR message`: an error reply (its text, with the error code first).
    case error(String)
    /// `:42`: a signed 64-bit integer.
    case integer(Int64)
    /// `$3 foo`: binary-safe bytes, or nil for the null bulk string.
    case bulkString([UInt8]?)
    /// `*2 ...`: an array of values, or nil for the null array.
    case array([RESPValue]?)

    /// `true` for either null.
    public var isNull: Bool {
        switch self {
        case .bulkString(nil), .array(nil): return true
        default: return false
        }
    }

    /// The text of a simple string, error or bulk string (bulk bytes decoded as UTF-8,
    /// invalid sequences replaced); nil otherwise.
    public var string: String? {
        switch self {
        case .simpleString(let text), .error(let text): return text
        case .bulkString(let bytes?): return String(decoding: bytes, as: UTF8.self)
        default: return nil
        }
    }

    /// The integer of an integer reply, or of a bulk string holding a decimal integer.
    public var integer: Int64? {
        switch self {
        case .integer(let value): return value
        case .bulkString(let bytes?): return Int64(String(decoding: bytes, as: UTF8.self))
        default: return nil
        }
    }

    /// The elements of a non-null array; nil otherwise.
    public var array: [RESPValue]? {
        if case .array(let elements?) = self { return elements }
        return nil
    }
}
