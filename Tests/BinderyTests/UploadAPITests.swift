import Bindery
import EventLoop
import Foundation
import XCTest

/// `POST /api/sessions/<id>/uploads/<picker>` with real curl against a real server (the
/// app on its own loop thread, configured from `--max-upload-size` as the binary is):
/// the file arrives, its patch is the answer and goes out on the SSE stream; oversize is
/// 413 with the JSON error body; unknown session or picker 404; a foreign origin 403.
final class UploadAPITests: XCTestCase {
    private var loop: EventLoop!
    private var app: BinderyApp!
    private var base = ""
    private let finished = DispatchSemaphore(value: 0)
    private var directory: URL!

    override func setUpWithError() throws {
        var options = try BinderyOptions.parse(["--port", "0", "--max-upload-size", "48", "--log-level", "error"])
        try options.validate()
        var configuration = options.configuration
        configuration.sessions.strictBindingErrors = false
        XCTAssertEqual(configuration.sessions.maxUploadSize, 48)
        XCTAssertEqual(configuration.http.limits.maxBodySize, 1 << 20, "never below the default body limit")
        let registry = SceneRegistry()
        registry.register("upload", title: "Upload") { UploadTestViewController() }
        loop = try EventLoop()
        app = BinderyApp(registry: registry, configuration: configuration)
        try app.start(on: loop)
        base = "http://127.0.0.1:\(app.port)"
        let loop = self.loop!
        let finished = self.finished
        Thread {
            loop.run()
            finished.signal()
        }.start()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("bindery-upload-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        if let app {
            let done = DispatchSemaphore(value: 0)
            let box = UncheckedBox(app)
            loop.execute { box.value.shutdown(timeout: .milliseconds(500)) { done.signal() } }
            XCTAssertEqual(done.wait(timeout: .now() + 5), .success)
            loop.stop()
            XCTAssertEqual(finished.wait(timeout: .now() + 5), .success)
        }
        if let directory { try? FileManager.default.removeItem(at: directory) }
        super.tearDown()
    }

    func testCurlUploadsAFileAndSSESeesTheResult() throws {
        let created = try curl(["-XPOST", base + "/api/sessions", "-d", #"{"scene":"upload"}"#])
        let id = try XCTUnwrap(try JSONValue.parse(created.body)["session"]?.stringValue)
        let stream = try startProcess("/usr/bin/curl", ["-sN", "--max-time", "3", "--noproxy", "*", base + "/api/sessions/\(id)/events"])
        Thread.sleep(forTimeInterval: 0.3)

        let file = directory.appendingPathComponent("hello.txt")
        try Data("hello, upload".utf8).write(to: file)
        let uploads = base + "/api/sessions/\(id)/uploads"
        let answer = try curl(["--data-binary", "@" + file.path, "-H", "Content-Type: text/plain", uploads + "/picker?name=hello.txt"])
        XCTAssertEqual(answer.status, 200)
        XCTAssertEqual(answer.body, #"{"type":"patch","changes":[{"target":"status","prop":"text","value":"hello.txt:hello, upload"}]}"#)

        // Over the server's 48 bytes (the picker allows 64): 413, JSON, before the picker has it.
        try Data(repeating: 65, count: 49).write(to: file)
        let large = try curl(["--data-binary", "@" + file.path, "-H", "X-Filename: big.bin", uploads + "/picker"])
        XCTAssertEqual(large.status, 413)
        XCTAssertEqual(large.body, #"{"error":"upload-too-large","message":"'big.bin' is 49 bytes; the largest file allowed is 48 bytes"}"#)

        XCTAssertEqual(try curl(["--data-binary", "x", uploads + "/status"]).status, 400, "not a picker")
        XCTAssertEqual(try curl(["--data-binary", "x", uploads + "/nope"]).status, 404)
        XCTAssertEqual(try curl(["--data-binary", "x", base + "/api/sessions/unknown/uploads/picker"]).status, 404)
        XCTAssertEqual(try curl(["--data-binary", "x", "-H", "Origin: http://evil.example", uploads + "/picker"]).status, 403)

        let events = stream.finish()
        XCTAssertTrue(events.hasPrefix("event: scene\n"), events)
        XCTAssertTrue(events.contains(#"data: {"type":"patch","changes":[{"target":"status","prop":"text","value":"hello.txt:hello, upload"}]}"#), events)
        XCTAssertTrue(events.contains(#""value":"failed: upload-too-large""#), events)
    }

    func testTheNameIsAFileNameNeverAPath() throws {
        let created = try curl(["-XPOST", base + "/api/sessions", "-d", #"{"scene":"upload"}"#])
        let id = try XCTUnwrap(try JSONValue.parse(created.body)["session"]?.stringValue)
        let answer = try curl(["--data-binary", "png", base + "/api/sessions/\(id)/uploads/picker?name=dir/a.png"])
        XCTAssertEqual(answer.status, 200)
        XCTAssertTrue(answer.body.contains(#""value":"a.png:png""#), "a name, never a path: \(answer.body)")
    }

    private func curl(_ arguments: [String]) throws -> (status: Int, body: String) {
        let result = try runProcess("/usr/bin/curl", ["-s", "--max-time", "5", "--noproxy", "*", "-w", "\n%{http_code}"] + arguments,
                                    timeout: 10)
        let lines = result.stdout.components(separatedBy: "\n")
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }
}
