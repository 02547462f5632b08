/// An incremental RESP2 parser: feed it bytes as they arrive (``append(_:)``), take
/// complete values out (``next()``).
///
/// Resumable: a partly received array keeps its finished elements on a stack, so each
/// byte is examined a bounded number of times however the input is split. Sizes are
/// bounded by ``Limits``; an announced length is checked before anything is reserved.
/// A value type with no shared state; a connection owns one.
public struct RESPParser: Sendable {
    /// Bounds on what a peer can make the parser hold.
    public struct Limits: Hashable, Sendable {
        /// Longest bulk string, in bytes (Redis's own `proto-max-bulk-len` is 512 MiB).
        public var maxBulkStringLength: Int
        /// Most elements in one array.
        public var maxArrayLength: Int
        /// Deepest nesting of arrays (a top-level array is depth 1).
        public var maxDepth: Int
        /// Longest line (simple string, error, integer or length), CRLF excluded.
        public var maxLineLength: Int

        /// Creates limits; the defaults suit replies from a trusted Redis.
        public init(maxBulkStringLength: Int = 512 * 1024 * 1024, maxArrayLength: Int = 1 << 24,
                    maxDepth: Int = 32, maxLineLength: Int = 64 * 1024) {
            self.maxBulkStringLength = maxBulkStringLength
            self.maxArrayLength = maxArrayLength
            self.maxDepth = maxDepth
            self.maxLineLength = maxLineLength
        }
    }

    /// An array being received: how many elements are still missing, and the others.
    private struct Frame: Sendable {
        var remaining: Int
        var elements: [RESPValue]
    }

    private enum Step {
        case needMore
        case pushed
        case value(RESPValue)
    }

    /// The limits this parser enforces.
    public let limits: Limits

    private var buffer: [UInt8] = []
    /// Start of the first unparsed byte in `buffer`.
    private var index = 0
    /// How far past `index` the current partial line has been searched for CR already.
    private var scanned = 0
    private var stack: [Frame] = []
    private var failure: RESPParserError?

    /// Creates a parser with `limits`.
    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Bytes received and not yet consumed by a complete value or array header.
    public var bufferedByteCount: Int { buffer.count - index }

    /// `true` when no value is partly received (nothing buffered, no open array).
    public var isIdle: Bool { bufferedByteCount == 0 && stack.isEmpty }

    /// Adds received bytes (copied).
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        buffer.append(contentsOf: bytes)
    }

    /// Adds received bytes (copied).
    public mutating func append<Bytes: Sequence>(contentsOf bytes: Bytes) where Bytes.Element == UInt8 {
        buffer.append(contentsOf: bytes)
    }

    /// The next complete value, or nil when more bytes are needed.
    ///
    /// - Throws: ``RESPParserError`` for malformed input or a broken limit; every later
    ///   call throws the same error.
    public mutating func next() throws(RESPParserError) -> RESPValue? {
        if let failure { throw failure }
        do {
            while true {
                switch try step() {
                case .needMore:
                    compact()
                    return nil
                case .pushed:
                    continue
                case .value(let value):
                    if let complete = fold(value) { return complete }
                }
            }
        } catch {
            failure = error
            throw error
        }
    }

    /// Adds a finished value to the open arrays; returns the top-level value it completes.
    private mutating func fold(_ value: RESPValue) -> RESPValue? {
        var value = value
        while !stack.isEmpty {
            let top = stack.count - 1
            stack[top].elements.append(value)
            stack[top].remaining -= 1
            guard stack[top].remaining == 0 else { return nil }
            value = .array(stack.removeLast().elements)
        }
        return value
    }

    /// Parses one value or array header at `index`, consuming it only when complete.
    private mutating func step() throws(RESPParserError) -> Step {
        guard let lineEnd = try findLineEnd() else { return .needMore }
        let type = buffer[index]
        let lineStart = index + 1
        let next = lineEnd + 2
        switch type {
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let text = String(decoding: buffer[lineStart..<lineEnd], as: UTF8.self)
            consume(upTo: next)
            return .value(type == UInt8(ascii: "+") ? .simpleString(text) : .error(text))
        case UInt8(ascii: ":"):
            let value = try parseInteger(lineStart, lineEnd)
            consume(upTo: next)
            return .value(.integer(value))
        case UInt8(ascii: "$"):
            let length = try parseInteger(lineStart, lineEnd)
            if length == -1 {
                consume(upTo: next)
                return .value(.bulkString(nil))
            }
            guard length >= 0 else { throw .invalidLength(length) }
            guard length <= Int64(limits.maxBulkStringLength) else {
                throw .bulkStringTooLong(length: length, limit: limits.maxBulkStringLength)
            }
            let end = next + Int(length)
            guard buffer.count >= end + 2 else { return .needMore }
            guard buffer[end] == 13, buffer[end + 1] == 10 else { throw .invalidBulkTerminator }
            let bytes = buffer.withUnsafeBufferPointer { source in
                [UInt8](unsafeUninitializedCapacity: end - next) { target, count in
                    if end > next { target.baseAddress!.update(from: source.baseAddress! + next, count: end - next) }
                    count = end - next
                }
            }
            consume(upTo: end + 2)
            return .value(.bulkString(bytes))
        case UInt8(ascii: "*"):
            let count = try parseInteger(lineStart, lineEnd)
            if count == -1 {
                consume(upTo: next)
                return .value(.array(nil))
            }
            guard count >= 0 else { throw .invalidLength(count) }
            guard count <= Int64(limits.maxArrayLength) else {
                throw .arrayTooLong(count: count, limit: limits.maxArrayLength)
            }
            guard stack.count < limits.maxDepth else { throw .nestingTooDeep(limit: limits.maxDepth) }
            consume(upTo: next)
            if count == 0 { return .value(.array([])) }
            var elements: [RESPValue] = []
            elements.reserveCapacity(min(Int(count), 1024))
            stack.append(Frame(remaining: Int(count), elements: elements))
            return .pushed
        default:
            throw .invalidType(type)
        }
    }

    /// The position of the CR ending the line at `index`, or nil when it has not all
    /// arrived. Remembers how far it searched, so a long line arriving byte by byte is
    /// not searched again from its start.
    private mutating func findLineEnd() throws(RESPParserError) -> Int? {
        let available = buffer.count - index
        guard available > 0 else { return nil }
        // Type byte + line + CR.
        let limit = min(available, limits.maxLineLength + 2)
        let start = max(1, scanned)
        // The first CR at or after `start`, or `limit` (no bounds check per byte).
        let found = buffer.withUnsafeBufferPointer { bytes -> Int in
            let line = bytes.baseAddress! + index
            var offset = start
            while offset < limit, line[offset] != 13 { offset += 1 }
            return offset
        }
        if found < limit {
            guard found + 1 < available else {
                scanned = found
                return nil
            }
            guard buffer[index + found + 1] == 10 else { throw .invalidLineEnding }
            return index + found
        }
        scanned = max(start, limit)
        if available > limits.maxLineLength + 1 { throw .lineTooLong(limit: limits.maxLineLength) }
        return nil
    }

    /// A decimal Int64 in `buffer[start..<end]`: optional `-`, then 1...19 digits.
    private func parseInteger(_ start: Int, _ end: Int) throws(RESPParserError) -> Int64 {
        var position = start
        let negative = position < end && buffer[position] == UInt8(ascii: "-")
        if negative { position += 1 }
        guard position < end else { throw .invalidInteger }
        var value: Int64 = 0
        while position < end {
            let digit = buffer[position] &- UInt8(ascii: "0")
            guard digit < 10 else { throw .invalidInteger }
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = negative ? times.subtractingReportingOverflow(Int64(digit))
                                            : times.addingReportingOverflow(Int64(digit))
            guard !overflow1, !overflow2 else { throw .invalidInteger }
            value = sum
            position += 1
        }
        return value
    }

    private mutating func consume(upTo position: Int) {
        index = position
        scanned = 0
    }

    /// Drops consumed bytes: all of them when everything was parsed, else once they are
    /// the larger half of a big buffer (amortised O(1) per byte).
    private mutating func compact() {
        if index == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 20)
            index = 0
        } else if index >= 64 * 1024 && index * 2 >= buffer.count {
            buffer.removeSubrange(0..<index)
            index = 0
        }
    }
}
