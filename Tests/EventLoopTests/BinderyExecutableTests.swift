import LoopTestSupport
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Integration tests of the `bindery` executable, run as a child process: it serves HTTP,
/// and SIGINT and SIGTERM must stop it cleanly (exit code 0).
///
/// The test bundle cannot depend on an executable target, so this uses the binary that
/// `swift build --build-tests` put next to the test bundle.
final class BinderyExecutableTests: XCTestCase {
    private func binderyURL() throws -> URL {
        let bundleDirectory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let url = bundleDirectory.appendingPathComponent("bindery")
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            XCTFail("no bindery executable at \(url.path): build with `swift build --build-tests` first")
            throw TestError("missing executable")
        }
        return url
    }

    /// A running `bindery` and its first line of output.
    private struct Child {
        let process: Process
        let firstLine: String
        let output: Pipe
    }

    private func launch(_ arguments: [String]) throws -> Child {
        let process = Process()
        process.executableURL = try binderyURL()
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        guard let line = readLine(from: output.fileHandleForReading.fileDescriptor) else {
            process.terminate()
            process.waitUntilExit()
            throw TestError("bindery printed nothing within \(testTimeout) s")
        }
        return Child(process: process, firstLine: line, output: output)
    }

    /// Reads one line from `fd`, waiting at most `testTimeout`.
    private func readLine(from fd: Int32) -> String? {
        var bytes: [UInt8] = []
        let deadline = Date(timeIntervalSinceNow: testTimeout)
        while Date() < deadline {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            var byte: UInt8 = 0
            guard read(fd, &byte, 1) == 1 else { break }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }

    /// Waits for the child to exit; `nil` if it is still running after `timeout`.
    private func waitForExit(_ process: Process, timeout: TimeInterval) -> Int32? {
        guard eventually(timeout: timeout, { !process.isRunning }) else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        process.waitUntilExit()
        return process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
    }

    /// A logfmt line's `key=value` fields (values unquoted).
    private func fields(_ line: String) -> [String: String] {
        var result: [String: String] = [:]
        var rest = Substring(line)
        while let equals = rest.firstIndex(of: "=") {
            let key = String(rest[..<equals]).trimmingCharacters(in: .whitespaces)
            rest = rest[rest.index(after: equals)...]
            var value = ""
            if rest.first == "\"" {
                rest = rest.dropFirst()
                while let character = rest.first, character != "\"" {
                    if character == "\\" { rest = rest.dropFirst() }
                    value.append(rest.first ?? " ")
                    rest = rest.dropFirst()
                }
                rest = rest.dropFirst()
            } else {
                value = String(rest.prefix { $0 != " " })
                rest = rest.dropFirst(value.count)
            }
            result[key] = value
        }
        return result
    }

    /// A UTC RFC 3339 time with milliseconds.
    private static func isUTCTime(_ text: String) -> Bool {
        (try? #/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/#.wholeMatch(in: text)) != nil
    }

    private func assertStopsCleanly(on signal: Int32, name: String) throws {
        let child = try launch(["--host", "127.0.0.1", "--port", "0", "--log-level", "error"])
        // The first line, even at --log-level error: time, level, where it listens.
        let first = fields(child.firstLine)
        XCTAssertNotNil(first["time"].flatMap { Self.isUTCTime($0) ? $0 : nil }, child.firstLine)
        XCTAssertEqual(first["level"], "notice", child.firstLine)
        XCTAssertTrue(first["msg"]?.hasPrefix("listening on http://127.0.0.1:") == true, child.firstLine)

        // It serves HTTP on the port it reports.
        let port = try XCTUnwrap(first["msg"]?.split(separator: ":").last.flatMap { Int($0) })
        let client = try TestClient(port: port)
        try client.send(Array("GET /healthz HTTP/1.0\r\n\r\n".utf8))
        let answer = String(decoding: try client.receiveUntilEOF(), as: UTF8.self)
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 200") || answer.hasPrefix("HTTP/1.0 200"), answer)

        XCTAssertEqual(kill(child.process.processIdentifier, signal), 0)
        XCTAssertEqual(waitForExit(child.process, timeout: 5), 0, "bindery did not exit with 0 within 5 s of \(name)")
        let rest = String(decoding: child.output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        // One stop line (not two saying the same), with time and level.
        let lines = rest.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 1, rest)
        let stop = fields(lines.first ?? "")
        XCTAssertEqual(stop["msg"], "stopping", rest)
        XCTAssertEqual(stop["signal"], name, rest)
        XCTAssertEqual(stop["level"], "notice", rest)
        XCTAssertNotNil(stop["time"].flatMap { Self.isUTCTime($0) ? $0 : nil }, rest)
    }

    func testSIGTERMStopsBinderyWithExitCodeZero() throws {
        try assertStopsCleanly(on: SIGTERM, name: "SIGTERM")
    }

    func testSIGINTStopsBinderyWithExitCodeZero() throws {
        try assertStopsCleanly(on: SIGINT, name: "SIGINT")
    }

    /// Runs bindery to its end with `arguments`: (exit status, stdout, stderr).
    private func runToEnd(_ arguments: [String]) throws -> (status: Int32?, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = try binderyURL()
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let status = waitForExit(process, timeout: 10)
        return (status, String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
                String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }

    func testBadArgumentsExitWithUsageError() throws {
        let range = try runToEnd(["--port", "70000"])
        XCTAssertEqual(range.status, 64)  // EX_USAGE, ArgumentParser's code for usage errors
        XCTAssertTrue(range.stderr.contains("--port must be 0...65535, not 70000"), range.stderr)
        let bogus = try runToEnd(["--bogus"])
        XCTAssertEqual(bogus.status, 64)
        XCTAssertTrue(bogus.stderr.lowercased().contains("unknown option '--bogus'"), bogus.stderr)
        XCTAssertFalse(bogus.stderr.contains("needs a value"), bogus.stderr)
        let level = try runToEnd(["--log-level", "loud"])
        XCTAssertEqual(level.status, 64)
        XCTAssertTrue(level.stderr.contains("--log-level must be"), level.stderr)
        let format = try runToEnd(["--log-format", "xml"])
        XCTAssertEqual(format.status, 64)
    }

    func testHelpAndVersion() throws {
        let help = try runToEnd(["--help"])
        XCTAssertEqual(help.status, 0)
        for flag in ["--host", "--port", "--public", "--allow-origin", "--log-level", "--log-format", "--grace",
                     "--max-sessions", "--max-events-per-second", "--max-message-size", "--version", "--help"] {
            XCTAssertTrue(help.stdout.contains(flag), "\(flag) missing from --help:\n\(help.stdout)")
        }
        XCTAssertTrue(help.stdout.contains("USAGE: bindery"), help.stdout)
        let version = try runToEnd(["--version"])
        XCTAssertEqual(version.status, 0)
        XCTAssertEqual(version.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "0.1.0")
    }

    /// `--log-format json`: one JSON object per line, every request with method, path,
    /// status, duration, bytes and client address.
    func testJSONLogLinesAndRequestLog() throws {
        let child = try launch(["--host", "127.0.0.1", "--port", "0", "--log-format", "json"])
        let first = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(child.firstLine.utf8)) as? [String: Any], child.firstLine)
        XCTAssertEqual(first["level"] as? String, "notice")
        let message = try XCTUnwrap(first["msg"] as? String)
        let port = try XCTUnwrap(message.split(separator: ":").last.flatMap { Int($0) }, message)
        let client = try TestClient(port: port)
        try client.send(Array("GET /api/nope HTTP/1.0\r\n\r\n".utf8))
        let answer = String(decoding: try client.receiveUntilEOF(), as: UTF8.self)
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 404"), answer)
        XCTAssertTrue(answer.contains("Content-Type: application/json"), answer)
        XCTAssertTrue(answer.hasSuffix(#"{"error":"not-found","message":"no API route GET /api/nope"}"#), answer)
        func get(_ path: String) throws -> String {
            let client = try TestClient(port: port)
            try client.send(Array("GET \(path) HTTP/1.0\r\n\r\n".utf8))
            return String(decoding: try client.receiveUntilEOF(), as: UTF8.self)
        }
        let health = try get("/healthz")
        XCTAssertTrue(health.contains(#""version":"0.1.0","uptime_seconds":"#), health)
        let metrics = try get("/metrics")
        XCTAssertTrue(metrics.contains("Content-Type: text/plain; version=0.0.4; charset=utf-8"), metrics)
        XCTAssertTrue(metrics.contains("bindery_http_requests_total{route=\"/api/*\",status=\"404\"} 1"), metrics)
        XCTAssertTrue(metrics.contains("process_resident_memory_bytes "), metrics)
        XCTAssertEqual(kill(child.process.processIdentifier, SIGTERM), 0)
        XCTAssertEqual(waitForExit(child.process, timeout: 5), 0)
        let rest = String(decoding: child.output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        var sawRequest = false
        for line in rest.split(separator: "\n") {
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], String(line))
            XCTAssertNotNil((object["time"] as? String).flatMap { Self.isUTCTime($0) ? $0 : nil }, String(line))
            XCTAssertNotNil(object["level"] as? String, String(line))
            if object["msg"] as? String == "request", object["path"] as? String == "/api/nope" {
                sawRequest = true
                XCTAssertEqual(object["method"] as? String, "GET")
                XCTAssertEqual(object["path"] as? String, "/api/nope")
                XCTAssertEqual(object["status"] as? Int, 404)
                XCTAssertNotNil(object["duration_ms"] as? Double)
                XCTAssertEqual(object["bytes"] as? Int, 60)
                XCTAssertTrue((object["client"] as? String)?.hasPrefix("127.0.0.1:") == true, String(line))
            }
        }
        XCTAssertTrue(sawRequest, rest)
    }
}
