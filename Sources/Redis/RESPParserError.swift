/// Why ``RESPParser`` rejected its input. After an error the parser stays failed: the
/// byte stream cannot be resynchronised, so close the connection.
public enum RESPParserError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The first byte of a value is not one of `+ - : $ *`.
    case invalidType(UInt8)
    /// A line ends in CR not followed by LF.
    case invalidLineEnding
    /// A length or integer line is not a decimal integer (or overflows 64 bits).
    case invalidInteger
    /// A bulk string or array length below -1.
    case invalidLength(Int64)
    /// A bulk string is not followed by CRLF.
    case invalidBulkTerminator
    /// A line (simple string, error, integer, length) is longer than the limit.
    case lineTooLong(limit: Int)
    /// A bulk string announces more bytes than the limit.
    case bulkStringTooLong(length: Int64, limit: Int)
    /// An array announces more elements than the limit.
    case arrayTooLong(count: Int64, limit: Int)
    /// Arrays nest deeper than the limit.
    case nestingTooDeep(limit: Int)

    /// A short English description.
    public var description: String {
        switch self {
        case .invalidType(let byte): return "RESP: invalid type byte 0x\(String(byte, radix: 16))"
        case .invalidLineEnding: return "RESP: CR not followed by LF"
        case .invalidInteger: return "RESP: invalid integer"
        case .invalidLength(let length): return "RESP: invalid length \(length)"
        case .invalidBulkTerminator: return "RESP: bulk string not followed by CRLF"
        case .lineTooLong(let limit): return "RESP: line longer than \(limit) bytes"
        case .bulkStringTooLong(let length, let limit): return "RESP: bulk string of \(length) bytes (limit \(limit))"
        case .arrayTooLong(let count, let limit): return "RESP: array of \(count) elements (limit \(limit))"
        case .nestingTooDeep(let limit): return "RESP: arrays nested deeper than \(limit)"
        }
    }
}
