// bindery: placeholder server. It runs the event loop, listens on --host/--port and
// closes every connection at once (no HTTP yet), and exits 0 on SIGINT or SIGTERM.

import EventLoop
import RxCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Command-line options.
struct Options {
    var host = "127.0.0.1"
    var port = 8080

    static let usage = "usage: bindery [--host ADDRESS] [--port PORT]   (defaults: 127.0.0.1, 8080; port 0 picks a free one)"

    /// Parses `--host X`, `--host=X`, `--port N`, `--port=N`, `-h`/`--help`.
    static func parse(_ arguments: [String]) -> Result<Options?, UsageError> {
        var options = Options()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            let (name, inlineValue) = split(argument)
            switch name {
            case "-h", "--help":
                return .success(nil)
            case "--host", "--port":
                guard let value = inlineValue ?? remaining.popFirst() else {
                    return .failure(UsageError(message: "\(name) needs a value"))
                }
                if name == "--host" {
                    options.host = value
                } else {
                    guard let port = Int(value), (0...65535).contains(port) else {
                        return .failure(UsageError(message: "--port must be 0...65535, not '\(value)'"))
                    }
                    options.port = port
                }
            default:
                return .failure(UsageError(message: "unknown argument '\(argument)'"))
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

/// Writes one line to standard error (unbuffered, straight to the file descriptor).
func printError(_ message: String) {
    var line = "bindery: \(message)\n"
    line.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
}

/// Prints one line to standard output and flushes it, so a parent process reading a
/// pipe sees it at once. (`fflush(nil)`: every stream, without naming the global `stdout`.)
func logLine(_ message: String) {
    print("bindery: \(message)")
    fflush(nil)
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

    let loop: EventLoop
    let listener: TCPListener
    let signals: SignalWatcher
    do {
        loop = try EventLoop()
        listener = try TCPListener(loop: loop, host: options.host, port: options.port) { connection in
            // No server yet: accept, then close at once (the client sees EOF).
            connection.close()
        }
        signals = try SignalWatcher.termination(loop: loop) { signal in
            logLine("\(signal == SIGINT ? "SIGINT" : "SIGTERM"), stopping")
            listener.close()
            loop.stop()
        }
    } catch {
        printError("\(error)")
        return 1
    }

    logLine("event loop running on \(listener.localAddress) "
        + "(no server yet: listening, each connection is closed at once); Ctrl-C to stop")

    loop.run()

    signals.close()
    listener.close()
    // Let the close callbacks run so the handles are freed before exit.
    loop.execute { loop.stop() }
    loop.run()
    return 0
}

exit(main())
