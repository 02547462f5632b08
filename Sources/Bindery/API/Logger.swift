import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How much the server logs.
public enum LogLevel: Int, Comparable, Sendable, CaseIterable {
    /// Failures only.
    case error
    /// Failures and refusals (limits, bad origins).
    case warning
    /// Plus one line per request and per session event (created, resumed, ended). Default.
    case info
    /// Plus protocol details (every error answer).
    case debug

    /// Parses `error`, `warning`/`warn`, `info`, `debug`.
    public init?(name: String) {
        switch name.lowercased() {
        case "error": self = .error
        case "warning", "warn": self = .warning
        case "info": self = .info
        case "debug": self = .debug
        default: return nil
        }
    }

    /// The lowercase name.
    public var name: String {
        switch self {
        case .error: return "error"
        case .warning: return "warning"
        case .info: return "info"
        case .debug: return "debug"
        }
    }

    /// Orders by verbosity.
    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Readable one-line logs on standard output: `2024-05-01T09:30:00.123 info  GET /api/scenes 200 0.2ms`.
/// Each line is written with one `write(2)` so lines from threads do not interleave.
public struct Logger: Sendable {
    /// The most verbose level written.
    public var level: LogLevel
    /// Where lines go; standard output by default.
    public var write: @Sendable (String) -> Void

    /// A logger at `level` writing to standard output.
    public init(level: LogLevel = .info, write: @escaping @Sendable (String) -> Void = Logger.standardOutput) {
        self.level = level
        self.write = write
    }

    /// Writes `message` if `level` is enabled.
    public func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
        guard level <= self.level else { return }
        let stamp = Self.timestamp()
        let padded = level.name.padding(toLength: 7, withPad: " ", startingAt: 0)
        write("\(stamp) \(padded) \(message())")
    }

    /// Writes `line` and a newline to standard output in one system call.
    public static let standardOutput: @Sendable (String) -> Void = { line in
        var text = line + "\n"
        text.withUTF8 { _ = Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
    }

    private static func timestamp() -> String {
        let full = ISO8601.localString(from: Date())
        // Drop the offset for readability: 2024-05-01T09:30:00.123
        if let plus = full.lastIndex(where: { $0 == "+" || $0 == "-" }), full.distance(from: full.startIndex, to: plus) > 10 {
            return String(full[..<plus])
        }
        return full
    }
}
