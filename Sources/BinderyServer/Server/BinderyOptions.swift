import ArgumentParser
import BinderyCluster
import BinderyProtocol
import BinderyRuntime
import HTTPServer
import Logging
import Redis

/// Bindery's standard command line (swift-argument-parser), as ``BinderyServer`` parses
/// it. An app with flags of its own can embed it in its own command with
/// `@OptionGroup var bindery: BinderyOptions` and pass it to
/// ``BinderyServer/run(_:bootstrapsLogging:configure:scenes:)``.
public struct BinderyOptions: ParsableArguments {
    /// `--host`: the address to bind.
    @Option(help: "Address to bind.")
    public var host = "127.0.0.1"

    /// `--port`: the port; 0 picks a free one.
    @Option(help: "Port; 0 picks a free one.")
    public var port = 8080

    /// `--public`: the app's own static files, served over the browser client.
    @Option(name: .customLong("public"), help: ArgumentHelp(
        "The app's own static files (attach-mode pages, images, CSS), served over the browser client.",
        valueName: "dir"))
    public var publicDirectory: String?

    /// `--allow-origin`: further browser origins (repeatable, or comma-separated).
    @Option(name: .customLong("allow-origin"), help: ArgumentHelp(
        "Also allow this browser origin (http://host:port) or host name; repeatable, or comma-separated.",
        valueName: "origin"))
    public var allowOrigin: [String] = []

    /// `--log-level`: `trace`, `debug`, `info`, `notice`, `warning`, `error` or `critical`.
    @Option(help: ArgumentHelp("trace, debug, info, notice, warning, error or critical.", valueName: "level"))
    public var logLevel = "info"

    /// `--log-format`: `logfmt` or `json` lines.
    @Option(help: ArgumentHelp("Log lines as logfmt or json.", valueName: "format"))
    public var logFormat: LogFormat = .logfmt

    /// `--grace`: how long a disconnected session stays resumable, in seconds.
    @Option(help: ArgumentHelp("How long a disconnected session stays resumable.", valueName: "seconds"))
    public var grace = 30

    /// `--max-sessions`: sessions per server.
    @Option(help: ArgumentHelp("Sessions per server.", valueName: "n"))
    public var maxSessions = 10_000

    /// `--max-sessions-per-address`: sessions per client address.
    @Option(help: ArgumentHelp("Sessions per client address.", valueName: "n"))
    public var maxSessionsPerAddress = 100

    /// `--max-events-per-second`: per session; more are answered `rate-limited`. No limit by default.
    @Option(help: ArgumentHelp("Events per second per session; more are answered rate-limited (default: no limit).",
                               valueName: "n"))
    public var maxEventsPerSecond: Int?

    /// `--max-connections`: open HTTP connections; more get 503.
    @Option(help: ArgumentHelp("Open HTTP connections; more get 503.", valueName: "n"))
    public var maxConnections = 1024

    /// `--max-websockets`: open WebSockets; more upgrades get 503.
    @Option(help: ArgumentHelp("Open WebSockets; more upgrades get 503.", valueName: "n"))
    public var maxWebsockets = 10_000

    /// `--max-upload-size`: the largest uploaded file (and the most one picker holds at once).
    @Option(help: ArgumentHelp("Largest uploaded file; larger is refused with upload-too-large.", valueName: "bytes"))
    public var maxUploadSize = 10 << 20

    /// `--max-message-size`: the largest WebSocket message or frame; larger closes with 1009.
    @Option(help: ArgumentHelp("Largest WebSocket message or frame; larger closes with 1009.", valueName: "bytes"))
    public var maxMessageSize = 64 << 10

    /// `--store`: where sessions are kept durable (Redis or an SQLite file); none (memory)
    /// by default.
    @Option(help: ArgumentHelp("Keep sessions durable: in Redis (redis://HOST:PORT or redis+unix:///path) or in an SQLite file "
                               + "of this process (sqlite:PATH, its folder created) (default: memory only).",
                               valueName: "url"))
    public var store: String?

    /// The defaults.
    public init() {}

    /// The parsed `--log-level`.
    public var level: Logger.Level {
        logLevel.lowercased() == "warn" ? .warning : Logger.Level(rawValue: logLevel.lowercased()) ?? .info
    }

    /// Checks the ranges (ArgumentParser reports a failure as a usage error, exit 64).
    public mutating func validate() throws {
        func check(_ value: Int, _ range: ClosedRange<Int>, _ flag: String) throws {
            guard range.contains(value) else {
                throw ValidationError("--\(flag) must be \(range.lowerBound)...\(range.upperBound), not \(value)")
            }
        }
        try check(port, 0...65535, "port")
        try check(grace, 0...86_400, "grace")
        try check(maxSessions, 1...10_000_000, "max-sessions")
        try check(maxSessionsPerAddress, 1...10_000_000, "max-sessions-per-address")
        if let maxEventsPerSecond { try check(maxEventsPerSecond, 1...10_000_000, "max-events-per-second") }
        try check(maxConnections, 1...1_000_000, "max-connections")
        try check(maxWebsockets, 1...1_000_000, "max-websockets")
        try check(maxUploadSize, 0...(1 << 30), "max-upload-size")
        try check(maxMessageSize, 1024...(64 << 20), "max-message-size")
        if let store, let path = BinderyApp.sqlitePath(store) {
            guard !path.isEmpty else { throw ValidationError("--store: sqlite: needs a file path (sqlite:/var/lib/bindery/sessions.db)") }
        } else if let store {
            do throws(RedisEndpoint.ParseError) {
                _ = try RedisEndpoint(url: store)
            } catch {
                throw ValidationError("--store: \(error)")
            }
        }
        let name = logLevel.lowercased()
        guard name == "warn" || Logger.Level(rawValue: name) != nil else {
            throw ValidationError("--log-level must be trace, debug, info, notice, warning, error or critical, not '\(logLevel)'")
        }
    }

    /// The app configuration these options describe.
    public var configuration: BinderyApp.Configuration {
        BinderyApp.Configuration(
            host: host, port: port, publicDirectory: publicDirectory,
            allowedOrigins: allowOrigin.flatMap { $0.split(separator: ",") }
                .map { String($0.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }.filter { !$0.isEmpty },
            sessions: SessionStore.Configuration(
                gracePeriod: .seconds(grace), maxSessions: maxSessions,
                maxSessionsPerAddress: maxSessionsPerAddress, maxEventsPerSecond: maxEventsPerSecond
            ).with(maxUploadSize: maxUploadSize),
            http: HTTPServer.Configuration(maxConnections: maxConnections).with(bodiesForUploadsOf: maxUploadSize),
            webSocket: WebSocketConfiguration(maxFrameSize: maxMessageSize, maxMessageSize: maxMessageSize),
            maxWebSockets: maxWebsockets,
            logLevel: level, store: store)
    }
}

extension LogFormat: ExpressibleByArgument {}
