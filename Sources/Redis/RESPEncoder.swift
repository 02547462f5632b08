/// Encodes RESP2: commands (arrays of bulk strings, what Redis accepts) and any value.
public enum RESPEncoder {
    /// Appends `arguments` as a command: `*N` then one bulk string per argument.
    public static func encodeCommand(_ arguments: [[UInt8]], into output: inout [UInt8]) {
        appendHeader(UInt8(ascii: "*"), arguments.count, into: &output)
        for argument in arguments {
            appendHeader(UInt8(ascii: "$"), argument.count, into: &output)
            output.append(contentsOf: argument)
            output.append(13)
            output.append(10)
        }
    }

    /// Appends `arguments` (as UTF-8) as a command.
    public static func encodeCommand(_ arguments: [String], into output: inout [UInt8]) {
        appendHeader(UInt8(ascii: "*"), arguments.count, into: &output)
        for argument in arguments {
            var argument = argument
            argument.withUTF8 { bytes in
                appendHeader(UInt8(ascii: "$"), bytes.count, into: &output)
                output.append(contentsOf: bytes)
            }
            output.append(13)
            output.append(10)
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
