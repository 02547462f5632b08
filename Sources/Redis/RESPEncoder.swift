/// Encodes RESP2: commands (arrays of bulk strings, what Redis accepts) and any value.
public enum RESPEncoder {
    /// Appends `arguments` as a command: `*N` then one bulk string per argument.
    public static func encodeCommand(_ arguments: [[UInt8]], into output: inout [UInt8]) {
        var size = headerSize(arguments.count)
        for argument in arguments { size += headerSize(argument.count) + argument.count + 2 }
        write(size, into: &output) { cursor in
            cursor.header(UInt8(ascii: "*"), arguments.count)
            for argument in arguments {
                cursor.header(UInt8(ascii: "$"), argument.count)
                argument.withUnsafeBufferPointer { cursor.bytes(UnsafeRawBufferPointer($0)) }
                cursor.crlf()
            }
        }
    }

    /// Appends `arguments` (as UTF-8) as a command.
    public static func encodeCommand(_ arguments: [String], into output: inout [UInt8]) {
        var size = headerSize(arguments.count)
        for argument in arguments { size += headerSize(argument.utf8.count) + argument.utf8.count + 2 }
        write(size, into: &output) { cursor in
            cursor.header(UInt8(ascii: "*"), arguments.count)
            for var argument in arguments {
                argument.withUTF8 { bytes in
                    cursor.header(UInt8(ascii: "$"), bytes.count)
                    cursor.bytes(UnsafeRawBufferPointer(bytes))
                }
                cursor.crlf()
            }
        }
    }

    /// Bytes of `*N\r\n` / `$N\r\n`.
    @inline(__always)
    private static func headerSize(_ count: Int) -> Int {
        var digits = 1
        var rest = count
        while rest >= 10 {
            rest /= 10
            digits += 1
        }
        return 3 + digits
    }

    /// Grows `output` by exactly `size` bytes and lets `body` fill them through a cursor:
    /// one capacity check and no per-byte bookkeeping (commands are on the hot path).
    private static func write(_ size: Int, into output: inout [UInt8], _ body: (inout Cursor) -> Void) {
        let start = output.count
        output.append(contentsOf: repeatElement(0, count: size))
        output.withUnsafeMutableBufferPointer { buffer in
            var cursor = Cursor(position: buffer.baseAddress! + start)
            body(&cursor)
            precondition(cursor.position == buffer.baseAddress! + start + size, "RESPEncoder size mismatch")
        }
    }

    /// Writes into memory reserved by `write`.
    private struct Cursor {
        var position: UnsafeMutablePointer<UInt8>

        @inline(__always)
        mutating func header(_ type: UInt8, _ count: Int) {
            position.pointee = type
            position += 1
            var digits = 1
            var rest = count
            while rest >= 10 {
                rest /= 10
                digits += 1
            }
            var value = count
            for index in stride(from: digits - 1, through: 0, by: -1) {
                position[index] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
            }
            position += digits
            crlf()
        }

        @inline(__always)
        mutating func bytes(_ bytes: UnsafeRawBufferPointer) {
            guard let base = bytes.baseAddress, bytes.count > 0 else { return }
            UnsafeMutableRawPointer(position).copyMemory(from: base, byteCount: bytes.count)
            position += bytes.count
        }

        @inline(__always)
        mutating func crlf() {
            position[0] = 13
            position[1] = 10
            position += 2
        }
    }

    /// Appends `value` in RESP2. Simple strings and errors must not contain CR or LF
    /// (not checked: Redis never sends such, and this is for tests and tools).
    public static func encode(_ value: RESPValue, into output: inout [UInt8]) {
        switch value {
        case .simpleString(let text):
            output.append(UInt8(ascii: "+"))
            output.append(contentsOf: text.utf8)
            output.append(13)
            output.append(10)
        case .error(let text):
            output.append(UInt8(ascii: "-"))
            output.append(contentsOf: text.utf8)
            output.append(13)
            output.append(10)
        case .integer(let number):
            output.append(UInt8(ascii: ":"))
            appendDecimal(number, into: &output)
            output.append(13)
            output.append(10)
        case .bulkString(nil):
            output.append(contentsOf: [UInt8(ascii: "$"), UInt8(ascii: "-"), UInt8(ascii: "1"), 13, 10])
        case .bulkString(let bytes?):
            appendHeader(UInt8(ascii: "$"), bytes.count, into: &output)
            output.append(contentsOf: bytes)
            output.append(13)
            output.append(10)
        case .array(nil):
            output.append(contentsOf: [UInt8(ascii: "*"), UInt8(ascii: "-"), UInt8(ascii: "1"), 13, 10])
        case .array(let elements?):
            appendHeader(UInt8(ascii: "*"), elements.count, into: &output)
            for element in elements { encode(element, into: &output) }
        }
    }

    @inline(__always)
    private static func appendHeader(_ type: UInt8, _ count: Int, into output: inout [UInt8]) {
        output.append(type)
        appendDecimal(Int64(count), into: &output)
        output.append(13)
        output.append(10)
    }

    /// Appends the decimal digits of `number` without building a String.
    private static func appendDecimal(_ number: Int64, into output: inout [UInt8]) {
        if number < 0 { output.append(UInt8(ascii: "-")) }
        var magnitude = number.magnitude
        if magnitude < 10 {
            output.append(UInt8(ascii: "0") + UInt8(magnitude))
            return
        }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for 20 digits, filled from the end
        withUnsafeMutableBytes(of: &digits) { raw in
            var position = 24
            while magnitude > 0 {
                position -= 1
                raw[position] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            }
            output.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[position..<24]))
        }
    }
}
