#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// HTTP dates (RFC 9110 §5.6.7, IMF-fixdate): `Sun, 06 Nov 1994 08:49:37 GMT`.
public enum HTTPDate {
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Formats seconds since 1970 (UTC) as an IMF-fixdate.
    public static func format(_ secondsSince1970: Int) -> String {
        var time = time_t(secondsSince1970)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }

    /// Parses an IMF-fixdate; nil for anything else (the obsolete RFC 850 and asctime
    /// forms are not accepted: a conditional header that does not parse is ignored, which
    /// RFC 9110 allows).
    public static func parse(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        // "Sun, 06 Nov 1994 08:49:37 GMT" is 29 bytes.
        guard bytes.count == 29, bytes[3] == 44, bytes[4] == 32, bytes[7] == 32, bytes[11] == 32,
              bytes[16] == 32, bytes[19] == 58, bytes[22] == 58, bytes[25] == 32,
              bytes[26...28].elementsEqual("GMT".utf8) else { return nil }
        func number(_ range: Range<Int>) -> Int32? {
            var value: Int32 = 0
            for byte in bytes[range] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int32(byte - 48)
            }
            return value
        }
        let monthName = String(decoding: bytes[8..<11], as: UTF8.self)
        guard days.contains(String(decoding: bytes[0..<3], as: UTF8.self)),
              let month = months.firstIndex(of: monthName),
              let day = number(5..<7), let year = number(12..<16),
              let hour = number(17..<19), let minute = number(20..<22), let second = number(23..<25),
              (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        var parts = tm()
        parts.tm_year = year - 1900
        parts.tm_mon = Int32(month)
        parts.tm_mday = day
        parts.tm_hour = hour
        parts.tm_min = minute
        parts.tm_sec = second
        return Int(timegm(&parts))
    }

    /// Seconds since 1970 now (wall clock).
    static func now() -> Int {
        Int(time(nil))
    }
}

/// The `Date` header value, formatted at most once per second. Loop-confined (one per
/// server).
final class HTTPDateCache {
    private var second = -1
    private var text = ""

    /// The current date as an IMF-fixdate.
    func current() -> String {
        let now = HTTPDate.now()
        if now != second {
            second = now
            text = HTTPDate.format(now)
        }
        return text
    }
}
