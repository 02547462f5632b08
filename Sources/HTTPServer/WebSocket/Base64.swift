/// Standard Base64 (RFC 4648 §4, with padding): what the WebSocket handshake's key and
/// accept headers use. Small and local, to keep Foundation out of the server's hot paths.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The Base64 text of `bytes`.
    static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= bytes.count {
            let value = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            output.append(alphabet[Int(value >> 18 & 63)])
            output.append(alphabet[Int(value >> 12 & 63)])
            output.append(alphabet[Int(value >> 6 & 63)])
            output.append(alphabet[Int(value & 63)])
            index += 3
        }
        let rest = bytes.count - index
        if rest > 0 {
            let value = UInt32(bytes[index]) << 16 | (rest == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
            output.append(alphabet[Int(value >> 18 & 63)])
            output.append(alphabet[Int(value >> 12 & 63)])
            output.append(rest == 2 ? alphabet[Int(value >> 6 & 63)] : UInt8(ascii: "="))
            output.append(UInt8(ascii: "="))
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes of padded Base64 `text`, or nil when it is not valid Base64.
    static func decode(_ text: String) -> [UInt8]? {
        let input = Array(text.utf8)
        guard input.count % 4 == 0 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(input.count / 4 * 3)
        var index = 0
        while index < input.count {
            var value: UInt32 = 0
            var padding = 0
            for offset in 0..<4 {
                let character = input[index + offset]
                let sextet: UInt32
                switch character {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): sextet = UInt32(character - UInt8(ascii: "A"))
                case UInt8(ascii: "a")...UInt8(ascii: "z"): sextet = UInt32(character - UInt8(ascii: "a")) + 26
                case UInt8(ascii: "0")...UInt8(ascii: "9"): sextet = UInt32(character - UInt8(ascii: "0")) + 52
                case UInt8(ascii: "+"): sextet = 62
                case UInt8(ascii: "/"): sextet = 63
                case UInt8(ascii: "=") where offset >= 2 && index + 4 == input.count:
                    sextet = 0
                    padding += 1
                default: return nil
                }
                // Nothing but padding may follow padding.
                if padding > 0 && character != UInt8(ascii: "=") { return nil }
                value = value << 6 | sextet
            }
            output.append(UInt8(value >> 16 & 0xFF))
            if padding < 2 { output.append(UInt8(value >> 8 & 0xFF)) }
            if padding < 1 { output.append(UInt8(value & 0xFF)) }
            index += 4
        }
        return output
    }
}
