// wsecho: a WebSocket echo server on Bindery's HTTP server and libuv loop.
//
//   swift run -c release wsecho --port 9001
//
// `/` echoes every text and binary message back (what the Autobahn conformance suite
// drives). `/ws` and `/ws/echo` speak the benchmark's "echo scene" protocol
// (../shared/bench/README.md): a scene message on connect, then for every event
// `{"type":"event",...,"value":"hello 123"}` a patch with the value uppercased.
// SIGINT/SIGTERM shut down gracefully: close 1001 to every WebSocket, then exit.
import EventLoop
import HTTPServer
#if canImport(Glibc)
import Glibc
#endif

/// Writes a line to standard error (fd 2; the C `stderr` global is not concurrency-safe).
func printError(_ message: String) {
    let line = message + "\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
}

struct Options {
    var host = "127.0.0.1"
    var port = 9001
    var maxMessageSize = 64 << 20
    var maxFrameSize = 64 << 20
    var anyOrigin = true

    static let usage = """
        usage: wsecho [--host 127.0.0.1] [--port 9001] [--max-message-size BYTES] [--max-frame-size BYTES] [--same-origin]
          --max-message-size  largest message accepted, all fragments together (default 64 MiB)
          --max-frame-size    largest single frame accepted (default 64 MiB)
          --same-origin       refuse browser origins other than the Host (default: any origin)
        """

    init(arguments: [String]) {
        var iterator = arguments.dropFirst().makeIterator()
        func value(_ flag: String) -> String {
            guard let value = iterator.next() else { Self.fail("\(flag) needs a value") }
            return value
        }
        func size(_ flag: String) -> Int {
            guard let size = Int(value(flag)), size > 0 else { Self.fail("\(flag) needs a positive byte count") }
            return size
        }
        while let argument = iterator.next() {
            switch argument {
            case "--host": host = value(argument)
            case "--port":
                guard let port = Int(value(argument)), (0...65535).contains(port) else { Self.fail("--port needs 0-65535") }
                self.port = port
            case "--max-message-size": maxMessageSize = size(argument)
            case "--max-frame-size": maxFrameSize = size(argument)
            case "--same-origin": anyOrigin = false
            case "-h", "--help":
                print(Self.usage)
                exit(0)
            default: Self.fail("unknown argument \(argument)")
            }
        }
    }

    static func fail(_ message: String) -> Never {
        printError("wsecho: \(message)\n\(usage)")
        exit(2)
    }
}

/// The benchmark's echo scene: `"value":"..."` uppercased into a patch.
enum EchoScene {
    static let scene = #"{"type":"scene","widgets":[{"id":"input","kind":"textField"},{"id":"output","kind":"label"}]}"#
    static let prefix = Array(#"{"type":"patch","changes":[{"target":"output","prop":"text","value":""#.utf8)
    static let suffix = Array(#""}]}"#.utf8)
    static let key = Array(#""value":""#.utf8)

    /// The patch for an event, or nil when the event has no string `value`.
    static func reply(to event: String) -> [UInt8]? {
        var event = event
        return event.withUTF8 { bytes -> [UInt8]? in
            guard let start = find(key, in: bytes) else { return nil }
            var reply = prefix
            var index = start + key.count
            var escaped = false
            while index < bytes.count {
                let byte = bytes[index]
                if !escaped && byte == UInt8(ascii: "\"") {
                    reply += suffix
                    return reply
                }
                escaped = !escaped && byte == UInt8(ascii: "\\")
                reply.append(byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte - 32 : byte)
                index += 1
            }
            return nil
        }
    }

    private static func find(_ needle: [UInt8], in haystack: UnsafeBufferPointer<UInt8>) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        outer: for start in 0...(haystack.count - needle.count) {
            for offset in 0..<needle.count where haystack[start + offset] != needle[offset] { continue outer }
            return start
        }
        return nil
    }
}

let options = Options(arguments: CommandLine.arguments)
let loop: EventLoop
do { loop = try EventLoop() } catch {
    printError("wsecho: \(error)")
    exit(1)
}

var webSocketConfiguration = WebSocketConfiguration(
    maxFrameSize: options.maxFrameSize,
    maxMessageSize: options.maxMessageSize,
    outgoingHighWater: 1 << 20,
    outgoingLimit: max(4 << 20, 2 * options.maxMessageSize + (1 << 20)),
    originPolicy: options.anyOrigin ? .any : .sameHost)

let router = Router()
let group = router.webSocket("/", configuration: webSocketConfiguration) { _, connection in
    connection.onText = { [unowned connection] text in connection.send(text: text) }
    connection.onBinary = { [unowned connection] bytes in connection.send(binary: bytes) }
}
for path in ["/ws", "/ws/echo"] {
    router.webSocket(path, configuration: webSocketConfiguration, group: group) { _, connection in
        connection.send(text: EchoScene.scene)
        connection.onText = { [unowned connection] text in
            if let reply = EchoScene.reply(to: text) {
                reply.withUnsafeBytes { _ = connection.send(text: String(decoding: $0, as: UTF8.self)) }
            }
        }
    }
}

let server = HTTPServer(loop: loop, configuration: HTTPServer.Configuration(maxConnections: 100_000), router: router)
group.closeOnShutdown(of: server)
do {
    try server.start(host: options.host, port: options.port)
} catch {
    printError("wsecho: cannot listen on \(options.host):\(options.port): \(error)")
    exit(1)
}
let signals = try? SignalWatcher.termination(loop: loop) { _ in
    server.shutdown(timeout: .seconds(5)) { loop.stop() }
}
printError("wsecho: listening on ws://\(options.host):\(server.port)/ (echo) and /ws (echo scene)")
loop.run()
signals?.close()
