/// A Lua script run by SHA-1 (`EVALSHA`), with its source for when Redis does not
/// have it (`NOSCRIPT`). See ``RedisConnection/evalSHA(_:keys:arguments:timeout:completion:)``.
public struct RedisScript: Hashable, Sendable {
    /// The Lua source.
    public let source: String
    /// Lowercase hex SHA-1 of the source, as `SCRIPT LOAD` returns it.
    public let sha1: String

    /// A script from its source (its SHA-1 is computed here).
    public init(_ source: String) {
        self.source = source
        sha1 = SHA1.hex(Array(source.utf8))
    }
}

/// SHA-1 (FIPS 180-4), only to name scripts the way Redis does; not for security.
enum SHA1 {
    static func hex(_ message: [UInt8]) -> String {
        var h: (UInt32, UInt32, UInt32, UInt32, UInt32) = (0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0)
        var data = message
        data.append(0x80)
        while data.count % 64 != 56 { data.append(0) }
        let bitLength = UInt64(message.count) * 8
        for shift in stride(from: 56, through: 0, by: -8) { data.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        var w = [UInt32](repeating: 0, count: 80)
        for chunk in stride(from: 0, to: data.count, by: 64) {
            for i in 0..<16 {
                let b = chunk + i * 4
                w[i] = UInt32(data[b]) << 24 | UInt32(data[b + 1]) << 16 | UInt32(data[b + 2]) << 8 | UInt32(data[b + 3])
            }
            for i in 16..<80 {
                let x = w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]
                w[i] = x << 1 | x >> 31
            }
            var (a, b, c, d, e) = h
            for i in 0..<80 {
                let f: UInt32, k: UInt32
                switch i {
                case 0..<20: f = (b & c) | (~b & d); k = 0x5A827999
                case 20..<40: f = b ^ c ^ d; k = 0x6ED9EBA1
                case 40..<60: f = (b & c) | (b & d) | (c & d); k = 0x8F1BBCDC
                default: f = b ^ c ^ d; k = 0xCA62C1D6
                }
                let temp = (a << 5 | a >> 27) &+ f &+ e &+ k &+ w[i]
                e = d; d = c; c = b << 30 | b >> 2; b = a; a = temp
            }
            h = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e)
        }
        let words = [h.0, h.1, h.2, h.3, h.4]
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for word in words {
            for shift in stride(from: 28, through: 0, by: -4) { out.append(digits[Int(word >> UInt32(shift) & 0xF)]) }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
