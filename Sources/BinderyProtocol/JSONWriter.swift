import Foundation
import RxWidgets
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes compact JSON into a byte buffer, without Foundation's serializers: strings are
/// escaped per RFC 8259 (`"`, `\`, control characters; everything else as UTF-8),
/// integral numbers without a fraction (`2`, not `2.0`), other numbers in Swift's
/// shortest round-tripping form, non-finite numbers as `null`. Pure.
///
/// Bytes rather than a `String`: appending to a `[UInt8]` is a bounds check and a copy,
/// where each `String.append` re-checks the string's storage and ASCII flags.
public struct JSONWriter {
    /// The JSON written so far, as UTF-8.
    public private(set) var bytes: [UInt8]

    /// An empty writer with room for `capacity` bytes.
    public init(capacity: Int = 128) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// The JSON written so far.
    public var text: String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// Appends raw JSON text (punctuation, keys known to need no escaping).
    @inline(__always)
    public mutating func raw(_ json: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: json.utf8Start, count: json.utf8CodeUnitCount))
    }

    /// Appends raw JSON text that is already valid JSON (an encoded message, say).
    @inline(__always)
    public mutating func raw(json: String) {
        append(json)
    }

    /// Appends `"key":` for a key that needs no escaping.
    @inline(__always)
    public mutating func key(_ key: StaticString) {
        bytes.append(UInt8(ascii: "\""))
        raw(key)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    @inline(__always)
    private mutating func append(_ string: String) {
        if string.utf8.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) == nil {
            bytes.append(contentsOf: string.utf8)
        }
    }

    /// Appends a JSON string.
    public mutating func string(_ value: String) {
        // Read in place (native strings are contiguous UTF-8): `withUTF8` is mutating, and
        // the copy it needs costs a retain and a release per string.
        if value.utf8.withContiguousStorageIfAvailable({ escaped($0) }) == nil {
            let copy = Array(value.utf8)
            copy.withUnsafeBufferPointer { escaped($0) }
        }
    }

    private mutating func escaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        var clean = 0  // start of the run not yet copied
        guard let base = utf8.baseAddress else {
            bytes.append(UInt8(ascii: "\""))
            return
        }
        let count = utf8.count
        var index = 0
        while index < count {
            // Eight bytes at a time while none needs a look (the parser's scan: it also
            // stops at non-ASCII bytes, which are then passed one by one).
            if index + 8 <= count,
               !JSONParser.hasSpecialByte(UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))) {
                index += 8
                continue
            }
            let byte = base[index]
            index += 1
            guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { continue }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[clean..<(index - 1)]))
            clean = index
            bytes.append(UInt8(ascii: "\\"))
            switch byte {
            case 0x22: bytes.append(UInt8(ascii: "\""))
            case 0x5C: bytes.append(UInt8(ascii: "\\"))
            case 0x0A: bytes.append(UInt8(ascii: "n"))
            case 0x0D: bytes.append(UInt8(ascii: "r"))
            case 0x09: bytes.append(UInt8(ascii: "t"))
            case 0x08: bytes.append(UInt8(ascii: "b"))
            case 0x0C: bytes.append(UInt8(ascii: "f"))
            default:
                bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                          Self.hexDigits[Int(byte >> 4)], Self.hexDigits[Int(byte & 0xF)]])
            }
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[clean...]))
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends a number (`null` when not finite).
    public mutating func number(_ value: Double) {
        guard value.isFinite else {
            raw("null")
            return
        }
        if value == value.rounded(), abs(value) < 9.007_199_254_740_992e15 {
            integer(Int64(value))
        } else {
            append(value.description)
        }
    }

    /// Appends an integer.
    public mutating func number(_ value: Int) {
        integer(Int64(value))
    }

    private mutating func integer(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for 20 digits, no allocation
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                count += 1
                buffer[24 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[(24 - count)...]))
        }
    }

    /// Appends `true` or `false`.
    public mutating func bool(_ value: Bool) {
        if value { raw("true") } else { raw("false") }
    }

    /// Appends a ``JSONValue``.
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: raw("null")
        case .bool(let bool): self.bool(bool)
        case .number(let number): self.number(number)
        case .string(let string): self.string(string)
        case .array(let elements):
            raw("[")
            for (index, element) in elements.enumerated() {
                if index > 0 { raw(",") }
                self.value(element)
            }
            raw("]")
        case .object(let members):
            raw("{")
            for (index, member) in members.enumerated() {
                if index > 0 { raw(",") }
                string(member.key)
                raw(":")
                self.value(member.value)
            }
            raw("}")
        }
    }

    /// Appends a widget value: colours as `#rrggbbaa`, dates as ISO 8601 in the local
    /// time zone, lists of strings as arrays, rows as arrays of objects with `id`.
    public mutating func widgetValue(_ value: WidgetValue) {
        switch value {
        case .null: raw("null")
        case .bool(let bool): self.bool(bool)
        case .number(let number): self.number(number)
        case .string(let string): self.string(string)
        case .color(let color): string(color.hexString)
        case .date(let date): string(ISO8601.localString(from: date))
        case .strings(let strings):
            raw("[")
            for (index, string) in strings.enumerated() {
                if index > 0 { raw(",") }
                self.string(string)
            }
            raw("]")
        case .rows(let rows):
            self.rows(rows)
        }
    }

    /// Appends rows as `[{"id":"…",<fields in key order>}, …]`.
    public mutating func rows(_ rows: [ListRow]) {
        raw("[")
        for (index, row) in rows.enumerated() {
            if index > 0 { raw(",") }
            self.row(row)
        }
        raw("]")
    }

    /// Appends one row as `{"id":"…",<fields in key order>}` (a field named `id` is
    /// shadowed by the row's id).
    public mutating func row(_ row: ListRow) {
        raw("{\"id\":")
        string(row.id)
        for key in row.fields.keys.sorted() where key != "id" {
            raw(",")
            string(key)
            raw(":")
            widgetValue(row.fields[key]!)
        }
        raw("}")
    }
}

/// ISO 8601 dates for the wire: written in the server's local time zone (the `TZ`
/// environment variable, else the system's), with the offset (`2024-05-01T09:30:00+09:00`,
/// milliseconds only when not zero); read with any offset or `Z`.
public enum ISO8601 {
    /// `date` in the local time zone, e.g. `2024-05-01T09:30:00+09:00`.
    public static func localString(from date: Date) -> String {
        let interval = date.timeIntervalSince1970
        let seconds = interval.rounded(.down)
        var milliseconds = Int(((interval - seconds) * 1000).rounded())
        var whole = time_t(seconds)
        if milliseconds >= 1000 {
            milliseconds -= 1000
            whole += 1
        }
        var parts = tm()
        localtime_r(&whole, &parts)
        var text = ""
        text.reserveCapacity(29)
        func pad(_ value: Int, _ width: Int) {
            let digits = String(value)
            if digits.count < width { text.append(String(repeating: "0", count: width - digits.count)) }
            text.append(digits)
        }
        pad(Int(parts.tm_year) + 1900, 4)
        text.append("-")
        pad(Int(parts.tm_mon) + 1, 2)
        text.append("-")
        pad(Int(parts.tm_mday), 2)
        text.append("T")
        pad(Int(parts.tm_hour), 2)
        text.append(":")
        pad(Int(parts.tm_min), 2)
        text.append(":")
        pad(Int(parts.tm_sec), 2)
        if milliseconds != 0 {
            text.append(".")
            pad(milliseconds, 3)
        }
        let offset = Int(parts.tm_gmtoff)
        text.append(offset < 0 ? "-" : "+")
        pad(abs(offset) / 3600, 2)
        text.append(":")
        pad(abs(offset) % 3600 / 60, 2)
        return text
    }

    /// Parses `2024-05-01T09:30:00Z`, `2024-05-01T09:30:00.250+09:00` (fractional
    /// seconds optional, offset or `Z` required); nil otherwise.
    public static func date(from string: String) -> Date? {
        let bytes = Array(string.utf8)
        var index = 0
        func number(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for offset in 0..<count {
                let byte = bytes[index + offset]
                guard byte >= 48 && byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            index += count
            return value
        }
        func expect(_ character: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == character else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect(45), let month = number(2), expect(45), let day = number(2),
              index < bytes.count, bytes[index] == 84 || bytes[index] == 116 else { return nil }
        index += 1
        guard let hour = number(2), expect(58), let minute = number(2), expect(58), let second = number(2) else { return nil }
        var fraction = 0.0
        if expect(46) {
            var scale = 0.1
            let start = index
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                fraction += Double(bytes[index] - 48) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        var offsetSeconds = 0
        if expect(90) || expect(122) {
            offsetSeconds = 0
        } else if index < bytes.count, bytes[index] == 43 || bytes[index] == 45 {
            let sign = bytes[index] == 45 ? -1 : 1
            index += 1
            guard let hours = number(2), expect(58), let minutes = number(2) else { return nil }
            offsetSeconds = sign * (hours * 3600 + minutes * 60)
        } else {
            return nil
        }
        guard index == bytes.count, (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60,
              second < 61 else { return nil }
        // Days from the civil date (proleptic Gregorian), no calendar object needed.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let monthIndex = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * monthIndex + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        let seconds = Double(days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds) + fraction
        return Date(timeIntervalSince1970: seconds)
    }
}
