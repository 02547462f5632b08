import BinderyCluster
import BinderyProtocol
import BinderyRuntime
import ArgumentParser
import CoreMetrics
import EventLoop
import Logging
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Runs an app's scenes as a server with Bindery's standard command line: the one call
/// an app's `main.swift` makes.
///
/// ```swift
/// import Bindery
///
/// BinderyServer.main(name: "todos", version: "1.0.0") { scenes in
///     scenes.register("todos", title: "Todos") { TodoViewController() }
/// }
/// ```
///
/// It parses the flags of ``BinderyOptions`` (`--host`, `--port`, `--public`,
/// `--log-level`, `--log-format`, limits...; `--help`; `--version`; an unknown option
/// or a bad value is a usage error, exit 64), bootstraps swift-log with
/// ``BinderyLogHandler`` and swift-metrics with the app's Prometheus registry (unless
/// the app bootstrapped them already), serves the browser client with `--public` over
/// it, runs the event loop, and on SIGINT or SIGTERM shuts down gracefully (sessions get
/// `bye`, WebSockets close with 1001) and exits 0. With `--store`, the shutdown is a
/// drain: pending journal writes are answered and the sessions released first, so
/// another process takes them over at once (docs/Cluster.md).
public enum BinderyServer {
    /// Parses the command line, serves, and exits when stopped (0) or when the server
    /// cannot start (1).
    ///
    /// - Parameters:
    ///   - name: the command's name in `--help`; default the executable's file name.
    ///   - version: the app's version for `--version` (Bindery's own is added).
    ///   - bootstrapsLogging: false when the app bootstraps swift-log itself (before this call).
    ///   - configure: changes to the configuration the flags gave (timeouts, limits...).
    ///   - scenes: registers the app's scenes.
    public static func main(name: String? = nil, version: String? = nil, bootstrapsLogging: Bool = true,
                            configure: ((inout BinderyApp.Configuration) -> Void)? = nil,
                            scenes: (SceneRegistry) throws -> Void) -> Never {
        let executable = CommandLine.arguments.first.map { String($0.split(separator: "/").last ?? "") } ?? "bindery"
        BinderyCommand.settings.withLock {
            $0 = (name ?? executable, version.map { "\($0) (Bindery \(BinderyApp.version))" } ?? BinderyApp.version)
        }
        let command = BinderyCommand.parseOrExit()
        exit(run(command.options, bootstrapsLogging: bootstrapsLogging, configure: configure, scenes: scenes))
    }

    /// Serves with already-parsed `options` until SIGINT or SIGTERM; returns the exit
    /// status (0 after a graceful stop, 1 when the server could not start). For apps
    /// with a command of their own; see ``main(name:version:bootstrapsLogging:configure:scenes:)``.
    public static func run(_ options: BinderyOptions, bootstrapsLogging: Bool = true,
                           configure: ((inout BinderyApp.Configuration) -> Void)? = nil,
                           scenes: (SceneRegistry) throws -> Void) -> Int32 {
        if bootstrapsLogging {
            let format = options.logFormat
            LoggingSystem.bootstrap { _ in BinderyLogHandler(format: format, level: .trace) }
        }
        var logger = Logger(label: "bindery")
        logger.logLevel = options.level
        // The start and stop lines are written whatever the level: supervisors and tests read them.
        var lifecycle = logger
        if lifecycle.logLevel > .notice { lifecycle.logLevel = .notice }

        let registry = SceneRegistry()
        do {
            try scenes(registry)
        } catch {
            logger.critical("cannot register the scenes", metadata: ["error": "\(error)"])
            return 1
        }
        var configuration = options.configuration
        configure?(&configuration)

        let metrics = ServerMetrics()
        if MetricsSystem.factory is NOOPMetricsHandler { MetricsSystem.bootstrap(metrics.factory) }

        let loop: EventLoop
        let app = BinderyApp(registry: registry, configuration: configuration, logger: logger, serverMetrics: metrics)
        let signals: SignalWatcher
        do {
            loop = try EventLoop()
            try app.start(on: loop, announcingWith: lifecycle)
            signals = try SignalWatcher.termination(loop: loop) { signal in
                lifecycle.notice("stopping", metadata: ["signal": "\(signal == SIGINT ? "SIGINT" : "SIGTERM")"])
                app.shutdown(timeout: .seconds(5)) { loop.stop() }
            }
        } catch {
            logger.critical("cannot start", metadata: ["error": "\(error)"])
            return 1
        }

        loop.run()

        // Already stopping: a repeated SIGINT/SIGTERM (a supervisor sending two) must not
        // kill the process by signal once the watcher below restores the default handlers.
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        signals.close()
        // Let the close callbacks run so the handles are freed before exit.
        loop.execute { loop.stop() }
        loop.run()
        return 0
    }
}

/// The root command behind ``BinderyServer/main(name:version:bootstrapsLogging:configure:scenes:)``:
/// its name and version are the app's, set before parsing.
struct BinderyCommand: ParsableCommand {
    /// Name and version, set once before parsing (ArgumentParser reads `configuration` statically).
    static let settings = Mutex((name: "bindery", version: BinderyApp.version))

    static var configuration: CommandConfiguration {
        let (name, version) = settings.withLock { $0 }
        return CommandConfiguration(commandName: name, abstract: "Serves Bindery scenes over HTTP and WebSocket.",
                                    discussion: "Stops gracefully on SIGINT or SIGTERM. Logs go to standard output.",
                                    version: version)
    }

    @OptionGroup var options: BinderyOptions

    init() {}
}

