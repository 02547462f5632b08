import EventLoop
import HTTPServer
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

        /// The defaults, overridden where given.
        public init(host: String = "127.0.0.1", port: Int = 8080, publicDirectory: String? = nil,
                    servesClient: Bool = true, allowedOrigins: [String] = [], sessions: SessionStore.Configuration = SessionStore.Configuration(),
                    http: HTTPServer.Configuration = HTTPServer.Configuration(),
                    webSocket: WebSocketConfiguration = WebSocketConfiguration(maxMessageSize: 64 << 10),
                    maxWebSockets: Int = 10_000,
                    logLevel: LogLevel = .info) {
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

    /// The scenes.
    public let registry: SceneRegistry
    /// The configuration.
    public let configuration: Configuration
    /// The logger (``Configuration/logLevel``).
    public let logger: Logger
    /// The sessions; nil before ``start(on:)``.
    public private(set) var store: SessionStore?
    /// The HTTP server; nil before ``start(on:)``.
    public private(set) var server: HTTPServer?
    /// The origin policy in force; nil before ``start(on:)`` (it needs the bound port).
    public private(set) var originPolicy: OriginPolicy?

    private var sockets: WebSocketEndpoint?

    /// An app serving `registry`'s scenes.
    public init(registry: SceneRegistry, configuration: Configuration = Configuration(), logger: Logger? = nil) {
        self.registry = registry
        self.configuration = configuration
        self.logger = logger ?? Logger(level: configuration.logLevel)
    }

    /// The bound port (0 before ``start(on:)``).
    public var port: Int { server?.port ?? 0 }

    /// Binds and starts serving on `loop`.
    ///
    /// - Throws: a `UVError` when the address cannot be bound; ``AppError`` for a public
    ///   directory that does not exist.
    public func start(on loop: EventLoop) throws {
        var roots: [String] = []
        if let directory = configuration.publicDirectory {
            guard (try? StaticFiles(root: directory)) != nil else { throw AppError.publicDirectoryMissing(directory) }
            roots.append(directory)
        }
        if configuration.servesClient { roots.append(BrowserClient.directory) }
        let files = roots.isEmpty ? nil : try StaticFiles(roots: roots)
        let metrics = Metrics()
        let store = SessionStore(registry: registry, configuration: configuration.sessions,
                                 scheduler: MainScheduler.instance, flushScheduler: MainScheduler.asyncInstance,
                                 metrics: metrics)
        let logger = self.logger
        store.logger = { logger.log(.info, $0) }
        BindingErrorRouter.log = { logger.log(.warning, $0) }
        self.store = store

        let router = Router()
        let server = HTTPServer(loop: loop, configuration: configuration.http, router: router)
        self.server = server

        router.get("/healthz") { [logger] request, responder in
            responder.respond(.json("{\"status\":\"ok\",\"sessions\":\(store.sessionCount)}"))
            logger.log(.debug, "GET /healthz 200")
        }
        router.get("/metrics") { [weak self] request, responder in
            let text = metrics.render(sessions: store.sessionCount,
                                      webSocketConnections: self?.sockets?.group.count ?? 0,
                                      httpConnections: self?.server?.connectionCount ?? 0)
            responder.respond(.text(text, headers: ["Content-Type": "text/plain; version=0.0.4; charset=utf-8"]))
        }
        router.get("/scene/:name") { [registry, logger] request, responder in
            let name = request.parameters["name"] ?? ""
            guard registry.scene(named: name) != nil, let files else {
                logger.log(.info, "GET \(request.path) 404")
                responder.respond(.error(404, "no scene named '\(name)'"))
                return
            }
            logger.log(.info, "GET \(request.path) (scene page)")
            var page = request
            page.path = "/scene.html"
            files.handle(page, responder)
        }

        try server.start(host: configuration.host, port: configuration.port)
        let policy = OriginPolicy.defaults(host: configuration.host, port: server.port, extra: configuration.allowedOrigins)
        originPolicy = policy

        SessionAPI(store: store, origins: policy, logger: logger).register(on: router)
        let sockets = WebSocketEndpoint(store: store, origins: policy, configuration: configuration.webSocket,
                                        maxSockets: configuration.maxWebSockets, logger: logger)
        sockets.register(on: router)
        self.sockets = sockets
        server.onShutdown { [sockets] done in
            store.endAll(reason: "shutdown")
            sockets.group.closeAll(code: .goingAway, reason: "server shutting down", completion: done)
        }
        if let files {
            router.fallback = { [logger] request, responder in
                logger.log(.debug, "\(request.method) \(request.path) (static)")
                files.handle(request, responder)
            }
        }
        logger.log(.info, "serving \(registry.scenes.count) scene(s) [\(registry.scenes.map(\.name).joined(separator: ", "))]"
            + " on http://\(configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host):\(server.port)"
            + (files.map { " (static: \($0.roots.joined(separator: " over ")))" } ?? " (no static files)"))
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
