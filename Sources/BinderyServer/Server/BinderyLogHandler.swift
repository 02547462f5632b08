import BinderyCluster
import BinderyProtocol
import BinderyRuntime
import Logging
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Bindery's log levels are swift-log's (`trace` ... `critical`).
public typealias LogLevel = Logger.Level

/// How ``BinderyLogHandler`` writes a line.
public enum LogFormat: String, Sendable, CaseIterable {
    /// `time=2026-11-26T00:30:00.123Z level=info msg="listening" url=http://127.0.0.1:8080`
    case logfmt
    /// `{"time":"2026-11-26T00:30:00.123Z","level":"info","msg":"listening","url":"http://127.0.0.1:8080"}`
    case json
}

/// A swift-log handler writing one line per entry to standard output (or `write`):
/// logfmt or JSON lines, each with a UTC RFC 3339 `time` (milliseconds), the `level`,
/// the `msg` and the metadata as further fields (sorted by key).
///
/// ``BinderyServer`` bootstraps the logging system with it; an app that wants its own
/// handler passes `bootstrapsLogging: false` and bootstraps its own first.
///
/// Each line goes out in one `write(2)`, so lines from threads do not interleave.
public struct BinderyLogHandler: LogHandler {
    /// The format.
    public var format: LogFormat
    /// The most verbose level written.
    public var logLevel: Logger.Level
    /// Metadata added to every line of this logger.
    public var metadata: Logger.Metadata = [:]
    /// Where a finished line (without its newline) goes; standard output by default.
    public var write: @Sendable (String) -> Void

    /// A handler at `level` writing `format` lines to standard output (or `write`).
    public init(format: LogFormat = .logfmt, level: Logger.Level = .info,
                write: @escaping @Sendable (String) -> Void = BinderyLogHandler.standardOutput) {
        self.format = format
        self.logLevel = level
        self.write = write
    }

    /// Metadata value for `key`.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes the event as one line.
    public func log(event: LogEvent) {
        var fields = metadata
        if let extra = event.metadata { fields.merge(extra) { $1 } }
        if let error = event.error { fields["error"] = "\(error)" }
        write(Self.line(format: format, time: Self.timestamp(), level: event.level, message: event.message.description,
                        metadata: fields))
    }

    /// One line (tests and other handlers can use it).
    public static func line(format: LogFormat, time: String, level: Logger.Level, message: String,
                            metadata: Logger.Metadata) -> String {
        let keys = metadata.keys.sorted()
        switch format {
        case .logfmt:
            var out = "time=\(time) level=\(level.rawValue) msg=\(logfmtValue(message))"
            for key in keys where key != "time" && key != "level" && key != "msg" {
                out += " \(logfmtKey(key))=\(logfmtValue(flat(metadata[key]!)))"
            }
            return out
        case .json:
            var out = "{\"time\":\"\(time)\",\"level\":\"\(level.rawValue)\",\"msg\":" + quoted(message)
            for key in keys where key != "time" && key != "level" && key != "msg" {
                out += "," + quoted(key) + ":" + json(metadata[key]!)
            }
            return out + "}"
        }
    }

    /// Writes `line` and a newline to standard output in one system call.
    public static let standardOutput: @Sendable (String) -> Void = { line in
        var text = line + "\n"
        text.withUTF8 { _ = Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
    }

    /// Now as UTC RFC 3339 with milliseconds: `2026-11-26T00:30:00.123Z`.
    public static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let millis = Int(now.tv_nsec / 1_000_000)
        let ms = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(ms)Z"
    }

    // MARK: - Encoding

    private static func quoted(_ text: String) -> String {
        var writer = JSONWriter(capacity: text.utf8.count + 2)
        writer.string(text)
        return writer.text
    }

    private static func flat(_ value: Logger.MetadataValue) -> String {
        switch value {
        case .string(let text): return text
        case .stringConvertible(let value): return value.description
        case .array(let values): return "[" + values.map(flat).joined(separator: ",") + "]"
        case .dictionary(let entries):
            return "{" + entries.keys.sorted().map { "\($0)=\(flat(entries[$0]!))" }.joined(separator: ",") + "}"
        }
    }

    private static func json(_ value: Logger.MetadataValue) -> String {
        switch value {
        case .string(let text): return quoted(text)
        case .stringConvertible(let value):
            // Numbers and booleans stay JSON numbers and booleans.
            if value is any BinaryInteger || value is Bool { return value.description }
            if let double = value as? Double, double.isFinite { return { var writer = JSONWriter(); writer.number(double); return writer.text }() }
            return quoted(value.description)
        case .array(let values): return "[" + values.map(json).joined(separator: ",") + "]"
        case .dictionary(let entries):
            return "{" + entries.keys.sorted().map { quoted($0) + ":" + json(entries[$0]!) }.joined(separator: ",") + "}"
        }
    }

    private static func logfmtKey(_ key: String) -> String {
        String(key.map { $0 == " " || $0 == "=" || $0 == "\"" ? "_" : $0 })
    }

    /// Bare when it has no space, quote, `=` or control character; quoted and escaped otherwise.
    static func logfmtValue(_ value: String) -> String {
        let needsQuotes = value.isEmpty || value.unicodeScalars.contains { $0 == " " || $0 == "\"" || $0 == "=" || $0.value < 0x20 || $0 == "\\" }
        guard needsQuotes else { return value }
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 { out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16) } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out + "\""
    }
}
