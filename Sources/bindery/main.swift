// bindery: serves the registered scenes over WebSocket and HTTP, with the static front
// end (the library's client, ./public over it). Stops gracefully on SIGINT or SIGTERM (sessions get `bye`,
// WebSockets close with 1001) and exits 0.

import Bindery
import BinderyDemo
import EventLoop
import Foundation
import HTTPServer
import RxCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes one line to standard error.
func printError(_ message: String) {
    var line = "bindery: \(message)\n"
    line.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
}

/// Writes one line to standard output at once (a parent reading a pipe sees it).
func logLine(_ message: String) {
    var line = "bindery: \(message)\n"
    line.withUTF8 { _ = write(STDOUT_FILENO, $0.baseAddress, $0.count) }
}

func main() -> Int32 {
    let options: Options
    switch Options.parse(Array(CommandLine.arguments.dropFirst())) {
    case .success(let parsed?):
        options = parsed
    case .success(nil):
        print(Options.usage)
        return 0
    case .failure(let error):
        printError(error.message)
        printError(Options.usage)
        return 2
    }

    var publicDirectory = options.publicDirectory
    if publicDirectory == nil {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: "public", isDirectory: &isDirectory), isDirectory.boolValue {
            publicDirectory = "public"
        }
    }

    let registry = SceneRegistry()
    registerDemoScenes(registry)

    let configuration = BinderyApp.Configuration(
        host: options.host, port: options.port, publicDirectory: publicDirectory,
        allowedOrigins: options.allowedOrigins,
        sessions: SessionStore.Configuration(
            gracePeriod: .seconds(options.gracePeriod), maxSessions: options.maxSessions,
            maxSessionsPerAddress: options.maxSessionsPerAddress, maxEventsPerSecond: options.maxEventsPerSecond),
        http: HTTPServer.Configuration(maxConnections: options.maxConnections),
        webSocket: WebSocketConfiguration(maxFrameSize: options.maxMessageSize, maxMessageSize: options.maxMessageSize),
        maxWebSockets: options.maxWebSockets,
        logLevel: options.logLevel)

    let loop: EventLoop
    let app = BinderyApp(registry: registry, configuration: configuration)
    let signals: SignalWatcher
    do {
        loop = try EventLoop()
        try app.start(on: loop)
        signals = try SignalWatcher.termination(loop: loop) { signal in
            logLine("\(signal == SIGINT ? "SIGINT" : "SIGTERM"), stopping")
            app.shutdown(timeout: .seconds(5)) { loop.stop() }
        }
    } catch {
        printError("\(error)")
        return 1
    }

    let host = options.host.contains(":") ? "[\(options.host)]" : options.host
    logLine("listening on http://\(host):\(app.port) (\(registry.scenes.count) scenes); Ctrl-C to stop")

    loop.run()

    // Shut down already: a repeated SIGINT/SIGTERM (a supervisor sending two) must not
    // kill the process by signal once the watcher below restores the default handlers.
    signal(SIGINT, SIG_IGN)
    signal(SIGTERM, SIG_IGN)
    signals.close()
    // Let the close callbacks run so the handles are freed before exit.
    loop.execute { loop.stop() }
    loop.run()
    return 0
}

exit(main())
