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

    private func assertStopsCleanly(on signal: Int32, name: String) throws {
        let child = try launch(["--host", "127.0.0.1", "--port", "0", "--log-level", "error"])
        XCTAssertTrue(child.firstLine.hasPrefix("bindery: listening on http://127.0.0.1:"), child.firstLine)

        // It serves HTTP on the port it reports.
        let port = try XCTUnwrap(child.firstLine.split(separator: ":").last.flatMap { Int($0.prefix { $0.isNumber }) })
        let client = try TestClient(port: port)
        try client.send(Array("GET /healthz HTTP/1.0\r\n\r\n".utf8))
        let answer = String(decoding: try client.receiveUntilEOF(), as: UTF8.self)
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 200") || answer.hasPrefix("HTTP/1.0 200"), answer)

        XCTAssertEqual(kill(child.process.processIdentifier, signal), 0)
        XCTAssertEqual(waitForExit(child.process, timeout: 5), 0, "bindery did not exit with 0 within 5 s of \(name)")
        let rest = String(decoding: child.output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(rest, "bindery: \(name), stopping\n")
    }

    func testSIGTERMStopsBinderyWithExitCodeZero() throws {
        try assertStopsCleanly(on: SIGTERM, name: "SIGTERM")
    }

    func testSIGINTStopsBinderyWithExitCodeZero() throws {
        try assertStopsCleanly(on: SIGINT, name: "SIGINT")
    }

    func testBadArgumentsExitWithUsageError() throws {
        let process = Process()
        process.executableURL = try binderyURL()
        process.arguments = ["--port", "70000"]
        process.standardOutput = Pipe()
        process.standardError = Pipe()
        try process.run()
        XCTAssertEqual(waitForExit(process, timeout: 5), 2)
    }
}
