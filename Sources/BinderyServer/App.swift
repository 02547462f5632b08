import BinderyCluster
import BinderyProtocol
import BinderyRuntime
import EventLoop
import Foundation
import HTTPServer
import Logging
import Redis
import RxCore

/// A Bindery server: the scenes of a ``SceneRegistry`` served over WebSocket, the HTTP
/// API, Server-Sent Events, the browser client (``BrowserClient``) and the app's own
/// static files over it.
///
/// ```swift
/// let loop = try EventLoop()
/// let registry = SceneRegistry()
/// registry.register("echo", title: "Echo") { EchoViewController() }
/// let app = BinderyApp(registry: registry, configuration: .init(port: 8080))
/// try app.start(on: loop)
/// loop.run()
/// ```
///
/// Routes: `/ws/<scene>` (WebSocket), `/api/...` (``SessionAPI``), `/healthz`,
/// `/metrics`, `/scene/<name>` (the scene page, the client's `scene.html`), and every other
/// `GET` from ``Configuration/publicDirectory`` or else the client.
///
/// Loop-confined: create, start and shut it down on the loop thread (or before the loop
/// runs).
public final class BinderyApp {
    /// Everything configurable.
    public struct Configuration: Sendable {
        /// The address to bind. Default `127.0.0.1`.
        public var host: String
        /// The port; 0 picks a free one. Default 8080.
        public var port: Int
        /// The app's own static files (attach-mode pages, images, CSS), served over the
        /// browser client: a file here wins over the client's file of the same path (so an
        /// `index.html` here replaces the scene list). Nil: the client alone.
        public var publicDirectory: String?
        /// Whether to serve the browser client (``BrowserClient``) under ``publicDirectory``.
        /// Default true.
        public var servesClient: Bool
        /// Browser origins allowed besides the same host and the defaults (see ``OriginPolicy``).
        public var allowedOrigins: [String]
        /// Session limits and timings.
        public var sessions: SessionStore.Configuration
        /// The HTTP server's limits and timeouts.
        public var http: HTTPServer.Configuration
        /// WebSocket limits (the origin policy is Bindery's own and ignored here). The
        /// default message limit is 64 KiB (a client message is one small JSON object).
        public var webSocket: WebSocketConfiguration
        /// The most open WebSockets at once; a further upgrade gets `503`
        /// (`too-many-connections`). Upgraded sockets leave the HTTP server's
        /// `maxConnections`, so this is their own cap. Default 10,000.
        public var maxWebSockets: Int
        /// How much to log.
        public var logLevel: LogLevel
        /// The session store: nil (the default) keeps sessions in this process's memory;
        /// `redis://HOST:PORT` or `redis+unix:///path` makes per-connection sessions
        /// durable in Redis (docs/Cluster.md); `sqlite:PATH` in an SQLite file of this
        /// process (docs/Operations.md), its folder created.
        public var store: String?

        /// The defaults, overridden where given.
        public init(host: String = "127.0.0.1", port: Int = 8080, publicDirectory: String? = nil,
                    servesClient: Bool = true, allowedOrigins: [String] = [], sessions: SessionStore.Configuration = SessionStore.Configuration(),
                    http: HTTPServer.Configuration = HTTPServer.Configuration(),
                    webSocket: WebSocketConfiguration = WebSocketConfiguration(maxMessageSize: 64 << 10),
                    maxWebSockets: Int = 10_000,
                    logLevel: LogLevel = .info, store: String? = nil) {
            self.store = store
            self.host = host
            self.port = port
            self.publicDirectory = publicDirectory
            self.servesClient = servesClient
            self.allowedOrigins = allowedOrigins
            self.sessions = sessions
            self.http = http
            self.webSocket = webSocket
            self.maxWebSockets = maxWebSockets
            self.logLevel = logLevel
        }
    }

    /// Bindery's version (`--version`, `/healthz`, `bindery_build_info`).
    public static let version = "0.1.0"

    /// The file of a `sqlite:PATH` store (`sqlite:` and `sqlite://` both accepted); nil
    /// for any other store.
    public static func sqlitePath(_ store: String) -> String? {
        guard store.hasPrefix("sqlite:") else { return nil }
        let rest = store.dropFirst("sqlite:".count)
        return String(rest.hasPrefix("//") ? rest.dropFirst(2) : rest)
    }

    /// The scenes.
    public let registry: SceneRegistry
    /// The configuration.
    public let configuration: Configuration
    /// The swift-log logger everything is logged through (at ``Configuration/logLevel``
    /// unless given).
    public let logger: Logger
    /// The metrics `/metrics` exposes besides the session counters.
    public let serverMetrics: ServerMetrics
    /// The sessions; nil before ``start(on:)``.
    public private(set) var store: SessionStore?
    /// The HTTP server; nil before ``start(on:)``.
    public private(set) var server: HTTPServer?
    /// The origin policy in force; nil before ``start(on:)`` (it needs the bound port).
    public private(set) var originPolicy: OriginPolicy?

    private var sockets: WebSocketEndpoint?
    private var startedAt = ContinuousClock.now
    /// The session store's persistence; set before ``start(on:)`` to use your own (an
    /// ``InMemorySessionPersistence`` shared by two apps in a test), else made from
    /// ``Configuration/store``.
    public var persistence: SessionPersistence?

    /// An app serving `registry`'s scenes. Without `logger`, one labelled `bindery` at
    /// ``Configuration/logLevel`` (through whatever swift-log was bootstrapped with).
    public init(registry: SceneRegistry, configuration: Configuration = Configuration(), logger: Logger? = nil,
                serverMetrics: ServerMetrics = ServerMetrics()) {
        self.registry = registry
        self.configuration = configuration
        if let logger {
            self.logger = logger
        } else {
            var logger = Logger(label: "bindery")
            logger.logLevel = configuration.logLevel
            self.logger = logger
        }
        self.serverMetrics = serverMetrics
    }

    /// The bound port (0 before ``start(on:)``).
    public var port: Int { server?.port ?? 0 }

    /// Binds and starts serving on `loop`; logs one `listening on` line at notice.
    ///
    /// - Throws: a `UVError` when the address cannot be bound; ``AppError`` for a public
    ///   directory that does not exist; a Foundation error when the folder of a
    ///   `sqlite:PATH` store cannot be made.
    public func start(on loop: EventLoop) throws {
        try start(on: loop, announcingWith: logger)
    }

    /// ``start(on:)``, with the `listening on` line written to `announcer` (a logger that
    /// writes it whatever the level, say).
    public func start(on loop: EventLoop, announcingWith announcer: Logger) throws {
        var roots: [String] = []
        if let directory = configuration.publicDirectory {
            guard (try? StaticFiles(root: directory)) != nil else { throw AppError.publicDirectoryMissing(directory) }
            roots.append(directory)
        }
        if configuration.servesClient { roots.append(BrowserClient.directory) }
        let files = roots.isEmpty ? nil : try StaticFiles(roots: roots, errorPage: { ErrorPage.html(status: $0) })
        let metrics = Metrics()
        let serverMetrics = self.serverMetrics
        let logger = self.logger
        if persistence == nil, let url = configuration.store, let path = Self.sqlitePath(url) {
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let sqlite = SQLiteSessionPersistence(path: path, loop: loop, timeToLive: configuration.sessions.gracePeriod + .seconds(10))
            sqlite.logger = { logger.notice("\($0)") }
            persistence = sqlite
        } else if persistence == nil, let url = configuration.store {
            let grace = configuration.sessions.gracePeriod
            let redis = try RedisSessionPersistence(url: url, loop: loop, timeToLive: grace + .seconds(10))
            redis.logger = { logger.notice("\($0)") }
            persistence = redis
        }
        let store = SessionStore(registry: registry, configuration: configuration.sessions,
                                 scheduler: MainScheduler.instance, flushScheduler: MainScheduler.asyncInstance,
                                 metrics: metrics, persistence: persistence)
        store.logger = { logger.info("\($0)") }
        if let url = configuration.store, let endpoint = try? RedisEndpoint(url: url) {
            // One instance of each shared scene across every process on this Redis.
            let cluster = SharedSceneCluster(endpoint: endpoint, loop: loop)
            cluster.logger = { logger.notice("\($0)") }
            store.sharedScenes = cluster
        }
        BindingErrorRouter.log = { logger.warning("\($0)") }
        // Unhandled Rx errors would otherwise be printed without time or level.
        Hooks.defaultErrorHandler = { _, error in logger.error("unhandled Rx error", metadata: ["error": "\(error)"]) }
        self.store = store
        startedAt = .now

        let router = Router()
        router.errorPage = { request, status, detail in ErrorPage.response(for: request.path, status: status, detail: detail) }
        let server = HTTPServer(loop: loop, configuration: configuration.http, router: router)
        server.onAccess = { record in
            // Unrouted paths share a label, so clients cannot grow the label set.
            let route = record.route ?? (record.path == "-" ? "none" : record.path.hasPrefix("/api") ? "/api/*" : "static")
            serverMetrics.countRequest(route: route, status: record.status)
            logger.info("request", metadata: [
                "method": "\(record.method)", "path": "\(SessionAPI.redacted(record.path))", "status": .stringConvertible(record.status),
                "duration_ms": .stringConvertible(Self.milliseconds(record.duration)), "bytes": .stringConvertible(record.bytes),
                "client": "\(record.remoteAddress.map { "\($0)" } ?? "-")",
            ])
        }
        self.server = server

        router.get("/healthz") { [weak self] request, responder in
            let uptime = self.map { Self.milliseconds(ContinuousClock.now - $0.startedAt) / 1000 } ?? 0
            var writer = JSONWriter()
            writer.raw("{\"status\":\"ok\",\"version\":")
            writer.string(Self.version)
            writer.raw(",\"uptime_seconds\":")
            writer.number(uptime)
            writer.raw(",\"sessions\":")
            writer.number(store.sessionCount)
            writer.raw("}")
            responder.respond(.json(writer.text, headers: ["Cache-Control": "no-store"]))
        }
        router.get("/metrics") { [weak self] request, responder in
            let text = metrics.render(sessions: store.sessionCount,
                                      webSocketConnections: self?.sockets?.group.count ?? 0,
                                      httpConnections: self?.server?.connectionCount ?? 0)
                + serverMetrics.renderRegistry()
            responder.respond(HTTPResponse(status: 200, headers: ["Content-Type": "text/plain; version=0.0.4; charset=utf-8",
                                                                  "Cache-Control": "no-store"], body: Array(text.utf8)))
        }
        router.get("/scene/:name") { [registry] request, responder in
            let name = request.parameters["name"] ?? ""
            guard registry.scene(named: name) != nil, let files else {
                responder.respond(ErrorPage.html(status: 404, detail: "There is no scene named \u{201C}\(name)\u{201D}."))
                return
            }
            var page = request
            page.path = "/scene.html"
            files.handle(page, responder)
        }

        try server.start(host: configuration.host, port: configuration.port)
        let policy = OriginPolicy.defaults(host: configuration.host, port: server.port, extra: configuration.allowedOrigins)
        originPolicy = policy

        SessionAPI(store: store, origins: policy, logger: logger).register(on: router)
        let sockets = WebSocketEndpoint(store: store, origins: policy, configuration: configuration.webSocket,
                                        maxSockets: configuration.maxWebSockets, logger: logger,
                                        eventLatency: serverMetrics.eventLatency)
        sockets.register(on: router)
        self.sockets = sockets
        server.onShutdown { [sockets] done in
            // With a store: the journal is flushed and ownership released first, so the
            // clients (closed with 1001) can resume on another server at once.
            store.sharedScenes?.stop()  // hands shared scenes to another process at once
            store.drain {
                store.endAll(reason: "shutdown")
                sockets.group.closeAll(code: .goingAway, reason: "server shutting down", completion: done)
            }
        }
        router.fallback = { request, responder in
            // Every /api/ path answers JSON, found or not.
            if request.path == "/api" || request.path.hasPrefix("/api/") {
                responder.respond(ErrorPage.response(for: request.path, status: 404,
                                                     detail: "no API route \(request.method) \(request.path)"))
            } else if let files {
                files.handle(request, responder)
            } else {
                responder.respond(ErrorPage.html(status: 404))
            }
        }
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        let url = "http://\(host):\(server.port)"
        announcer.notice("listening on \(url)", metadata: [
            "scenes": "\(registry.scenes.map(\.name).joined(separator: ","))",
            "static": "\(files.map { $0.roots.joined(separator: ",") } ?? "-")",
            "version": "\(Self.version)",
        ])
    }

    /// `duration` in milliseconds, to the microsecond.
    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return (Double(seconds) * 1_000_000 + Double(attoseconds / 1_000_000_000_000)) / 1000
    }

    /// Shuts down gracefully: ends every session (clients get `bye`, WebSockets close
    /// with 1001), stops accepting, lets in-flight requests finish; then `completion`.
    public func shutdown(timeout: Duration = .seconds(5), completion: (() -> Void)? = nil) {
        guard let server else {
            completion?()
            return
        }
        server.shutdown(timeout: timeout, completion: completion)
    }
}

/// Why the app could not start.
public enum AppError: Error, Equatable, CustomStringConvertible {
    /// `--public DIR` is not a directory.
    case publicDirectoryMissing(String)

    /// A readable message.
    public var description: String {
        switch self {
        case .publicDirectoryMissing(let path): return "public directory '\(path)' does not exist"
        }
    }
}
