import Bindery

/// Command-line options.
struct Options {
    var host = "127.0.0.1"
    var port = 8080
    var publicDirectory: String?
    var allowedOrigins: [String] = []
    var logLevel = LogLevel.info
    var gracePeriod = 30
    var maxSessions = 10_000
    var maxSessionsPerAddress = 100
    var maxEventsPerSecond: Int?
    var maxConnections = 1024
    var maxWebSockets = 10_000
    var maxMessageSize = 64 << 10

    static let usage = """
        usage: bindery [--host ADDRESS] [--port PORT] [--public DIR] [--allow-origin ORIGIN]...
                       [--log-level error|warning|info|debug] [--grace SECONDS]
                       [--max-sessions N] [--max-sessions-per-address N] [--max-events-per-second N]
                       [--max-connections N] [--max-websockets N] [--max-message-size BYTES]

          --host ADDRESS        address to bind (default 127.0.0.1)
          --port PORT           port; 0 picks a free one (default 8080)
          --public DIR          own static files, served over the browser client
                                (default ./public when it exists)
          --allow-origin O      also allow this browser origin (http://host:port) or host name;
                                repeatable, or comma-separated
          --log-level LEVEL     error, warning, info (default) or debug
          --grace SECONDS       how long a disconnected session stays resumable (default 30)
          --max-sessions N      sessions per server (default 10000)
          --max-sessions-per-address N   sessions per client address (default 100)
          --max-events-per-second N      per session; more are answered rate-limited (default: no limit)
          --max-connections N   open HTTP connections; more get 503 (default 1024)
          --max-websockets N    open WebSockets; more upgrades get 503 (default 10000)
          --max-message-size BYTES       largest WebSocket message or frame; larger closes with 1009
                                (default 65536)
        """

    /// Parses `--name value` and `--name=value`; `-h`/`--help` gives nil.
    static func parse(_ arguments: [String]) -> Result<Options?, UsageError> {
        var options = Options()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            let (name, inlineValue) = split(argument)
            if name == "-h" || name == "--help" { return .success(nil) }
            guard name.hasPrefix("--") else { return .failure(UsageError(message: "unknown argument '\(argument)'")) }
            guard let value = inlineValue ?? remaining.popFirst() else {
                return .failure(UsageError(message: "\(name) needs a value"))
            }
            func number(_ range: ClosedRange<Int>) -> Result<Int, UsageError> {
                guard let number = Int(value), range.contains(number) else {
                    return .failure(UsageError(message: "\(name) must be \(range.lowerBound)...\(range.upperBound), not '\(value)'"))
                }
                return .success(number)
            }
            do throws(UsageError) {
                switch name {
                case "--host": options.host = value
                case "--port": options.port = try number(0...65535).get()
                case "--public": options.publicDirectory = value
                case "--allow-origin":
                    options.allowedOrigins += value.split(separator: ",").map { String($0).trimmingSpaces() }.filter { !$0.isEmpty }
                case "--log-level":
                    guard let level = LogLevel(name: value) else {
                        throw UsageError(message: "--log-level must be error, warning, info or debug, not '\(value)'")
                    }
                    options.logLevel = level
                case "--grace": options.gracePeriod = try number(0...86_400).get()
                case "--max-sessions": options.maxSessions = try number(1...10_000_000).get()
                case "--max-sessions-per-address": options.maxSessionsPerAddress = try number(1...10_000_000).get()
                case "--max-events-per-second": options.maxEventsPerSecond = try number(1...10_000_000).get()
                case "--max-connections": options.maxConnections = try number(1...1_000_000).get()
                case "--max-websockets": options.maxWebSockets = try number(1...1_000_000).get()
                case "--max-message-size": options.maxMessageSize = try number(1024...(64 << 20)).get()
                default: throw UsageError(message: "unknown argument '\(argument)'")
                }
            } catch {
                return .failure(error)
            }
        }
        return .success(options)
    }

    private static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }
}

/// A bad command line.
struct UsageError: Error {
    var message: String
}

extension String {
    func trimmingSpaces() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
