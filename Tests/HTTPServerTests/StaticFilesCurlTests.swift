import EventLoop
import Foundation
import HTTPServer
import XCTest

/// `StaticFiles` behind the real server, exercised with curl: keep-alive, HEAD, 304,
/// 404, index.html, MIME types, traversal attempts, oversize headers, large files.
final class StaticFilesCurlTests: XCTestCase {
    private var directory: URL!
    private var server: HTTPTestServer!
    private var base: String { "http://127.0.0.1:\(server.port)" }
    private let secret = "TOP SECRET outside the root"
    private var big: [UInt8] = []

    override func setUpWithError() throws {
        try XCTSkipUnless(curlAvailable, "curl is not installed")
        let fileManager = FileManager.default
        directory = fileManager.temporaryDirectory.appendingPathComponent("bindery-static-\(UUID().uuidString)")
        let root = directory.appendingPathComponent("public")
        try fileManager.createDirectory(at: root.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try fileManager.createDirectory(at: directory.appendingPathComponent("publicity"), withIntermediateDirectories: true)
        try "<h1>home</h1>\n".write(to: root.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
        try "body { color: red }\n".write(to: root.appendingPathComponent("style.css"), atomically: true, encoding: .utf8)
        try "hello file\n".write(to: root.appendingPathComponent("a.txt"), atomically: true, encoding: .utf8)
        try "<p>sub</p>\n".write(to: root.appendingPathComponent("sub/index.html"), atomically: true, encoding: .utf8)
        try secret.write(to: directory.appendingPathComponent("secret.txt"), atomically: true, encoding: .utf8)
        try secret.write(to: directory.appendingPathComponent("publicity/secret.txt"), atomically: true, encoding: .utf8)
        try fileManager.createSymbolicLink(atPath: root.appendingPathComponent("link.txt").path, withDestinationPath: "../secret.txt")
        try fileManager.createSymbolicLink(atPath: root.appendingPathComponent("up").path, withDestinationPath: "..")
        try fileManager.createSymbolicLink(atPath: root.appendingPathComponent("sibling").path, withDestinationPath: "../publicity")
        try fileManager.createSymbolicLink(atPath: root.appendingPathComponent("inside.txt").path, withDestinationPath: "a.txt")
        var state: UInt32 = 12345
        big = (0..<(1536 * 1024 + 7)).map { _ in
            state = state &* 1_103_515_245 &+ 12345
            return UInt8(truncatingIfNeeded: state >> 16)
        }
        try Data(big).write(to: root.appendingPathComponent("big.bin"))
        let files = try StaticFiles(root: root.path)
        server = try HTTPTestServer { router in
            router.get("/api/ping") { _, responder in responder.respond(.text("pong")) }
            files.register(on: router)
        }
    }

    override func tearDown() {
        server?.stop()
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    /// `(status, headers, body)` of one request made with `arguments`.
    private func fetch(_ path: String, _ arguments: [String] = []) throws -> (status: Int, headers: String, body: String) {
        let headerFile = directory.appendingPathComponent("headers-\(UUID().uuidString)").path
        let result = try runCurl(arguments + ["--path-as-is", "-D", headerFile, base + path])
        let headers = (try? String(contentsOfFile: headerFile, encoding: .utf8)) ?? ""
        let status = headers.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) } ?? -1
        XCTAssertEqual(result.status, 0, "curl failed: \(result.stderr)")
        return (status, headers, result.stdout)
    }

    private func header(_ name: String, in headers: String) -> String? {
        headers.split(separator: "\r\n").first { $0.lowercased().hasPrefix(name.lowercased() + ":") }
            .map { String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces) }
    }

    func testServesFilesWithTypesAndValidators() throws {
        let css = try fetch("/style.css")
        XCTAssertEqual(css.status, 200)
        XCTAssertEqual(css.body, "body { color: red }\n")
        XCTAssertEqual(header("Content-Type", in: css.headers), "text/css; charset=utf-8")
        XCTAssertEqual(header("Content-Length", in: css.headers), "20")
        XCTAssertNotNil(header("ETag", in: css.headers))
        XCTAssertNotNil(header("Last-Modified", in: css.headers).flatMap(HTTPDate.parse))
        XCTAssertNotNil(header("Date", in: css.headers).flatMap(HTTPDate.parse))
        // Routes still win over files.
        XCTAssertEqual(try fetch("/api/ping").body, "pong")
    }

    func testIndexAndDirectoryRedirect() throws {
        let home = try fetch("/")
        XCTAssertEqual(home.body, "<h1>home</h1>\n")
        XCTAssertEqual(header("Content-Type", in: home.headers), "text/html; charset=utf-8")
        XCTAssertEqual(try fetch("/sub/").body, "<p>sub</p>\n")
        let redirect = try fetch("/sub")
        XCTAssertEqual(redirect.status, 301)
        XCTAssertEqual(header("Location", in: redirect.headers), "/sub/")
        XCTAssertEqual(try fetch("/sub", ["-L"]).body, "<p>sub</p>\n")
    }

    func testKeepAliveReusesTheConnection() throws {
        let result = try runCurl(["-v", "-o", "/dev/null", "-o", "/dev/null", "-o", "/dev/null",
                                  base + "/a.txt", base + "/style.css", base + "/api/ping"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("Re-using existing") || result.stderr.contains("Reusing existing"), result.stderr)
        XCTAssertEqual(result.stderr.components(separatedBy: "Connected to").count - 1, 1, result.stderr)
    }

    func testHeadSendsLengthButNoBody() throws {
        let head = try fetch("/big.bin", ["-I"])
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(header("Content-Length", in: head.headers), String(big.count))
        XCTAssertEqual(header("Content-Type", in: head.headers), "application/octet-stream")
        XCTAssertEqual(head.body, head.headers)  // -I prints the headers as the output
    }

    func testConditionalRequestsAnswer304() throws {
        let first = try fetch("/a.txt")
        let etag = try XCTUnwrap(header("ETag", in: first.headers))
        let modified = try XCTUnwrap(header("Last-Modified", in: first.headers))
        let byTag = try fetch("/a.txt", ["-H", "If-None-Match: \(etag)"])
        XCTAssertEqual(byTag.status, 304)
        XCTAssertEqual(byTag.body, "")
        XCTAssertEqual(header("ETag", in: byTag.headers), etag)
        XCTAssertEqual(try fetch("/a.txt", ["-H", "If-None-Match: \"other\", W/\(etag)"]).status, 304)
        XCTAssertEqual(try fetch("/a.txt", ["-H", "If-None-Match: \"other\""]).status, 200)
        XCTAssertEqual(try fetch("/a.txt", ["-H", "If-Modified-Since: \(modified)"]).status, 304)
        XCTAssertEqual(try fetch("/a.txt", ["-H", "If-Modified-Since: Sat, 01 Jan 2000 00:00:00 GMT"]).status, 200)
        // If-None-Match wins over If-Modified-Since.
        XCTAssertEqual(try fetch("/a.txt", ["-H", "If-None-Match: \"other\"", "-H", "If-Modified-Since: \(modified)"]).status, 200)
    }

    func testMissingFilesAre404() throws {
        XCTAssertEqual(try fetch("/nope.txt").status, 404)
        XCTAssertEqual(try fetch("/a.txt/").status, 404)
        XCTAssertEqual(try fetch("/sub/nope/").status, 404)
    }

    func testTraversalAttemptsNeverLeaveTheRoot() throws {
        let attempts = [
            "/../secret.txt", "/sub/../../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E/secret.txt",
            "/sub/%2e%2e/%2e%2e/secret.txt", "/..%2fsecret.txt", "/%2e%2e%2fsecret.txt", "/sub%2f..%2f..%2fsecret.txt",
            "/..%5csecret.txt", "/a.txt%00.html", "/%00", "/link.txt", "/up/secret.txt",
            "/sibling/secret.txt", "/./a.txt/../../secret.txt", "/.%2e/secret.txt", "//../secret.txt",
        ]
        for path in attempts {
            let response = try fetch(path)
            XCTAssertTrue(response.status == 404 || response.status == 400, "\(path) -> \(response.status)")
            XCTAssertFalse(response.body.contains("SECRET"), path)
        }
        // A symlink that stays inside is fine.
        XCTAssertEqual(try fetch("/inside.txt").body, "hello file\n")
        // Even through a link that leaves and comes back: what counts is where it resolves.
        XCTAssertEqual(try fetch("/up/public/a.txt").body, "hello file\n")
        // So is a raw request curl would normalise, sent by hand.
        let client = try HTTPRawClient(port: server.port)
        client.send("GET /../secret.txt HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let raw = String(decoding: client.receiveAll(), as: UTF8.self)
        XCTAssertTrue(raw.hasPrefix("HTTP/1.1 404 "), raw)
    }

    func testOversizeHeadersAre431() throws {
        let response = try fetch("/a.txt", ["-H", "X-Big: " + String(repeating: "a", count: 17 * 1024)])
        XCTAssertEqual(response.status, 431)
        let many = (0..<120).flatMap { ["-H", "X-Field-\($0): v"] }
        XCTAssertEqual(try fetch("/a.txt", many).status, 431)
    }

    func testLargeFileIsStreamedIntact() throws {
        let output = directory.appendingPathComponent("download.bin")
        let result = try runCurl(["-o", output.path, "-w", "%{http_code} %{size_download}", base + "/big.bin"])
        XCTAssertEqual(result.stdout, "200 \(big.count)", result.stderr)
        XCTAssertEqual(try [UInt8](Data(contentsOf: output)), big)
        // And twice on one connection (the stream ends cleanly, keep-alive continues).
        let twice = try runCurl(["-v", "-o", "/dev/null", "-o", "/dev/null", "-w", "%{size_download} ",
                                 base + "/big.bin", base + "/big.bin"])
        XCTAssertEqual(twice.stdout, "\(big.count) \(big.count) ", twice.stderr)
        XCTAssertTrue(twice.stderr.contains("Re-using existing") || twice.stderr.contains("Reusing existing"), twice.stderr)
    }

    func testOtherMethodsAre405() throws {
        let response = try fetch("/a.txt", ["-X", "POST", "-d", "x"])
        XCTAssertEqual(response.status, 405)
        XCTAssertEqual(header("Allow", in: response.headers), "GET, HEAD")
    }

    func testRootMustBeADirectory() {
        XCTAssertThrowsError(try StaticFiles(root: "/definitely/not/here"))
        XCTAssertThrowsError(try StaticFiles(roots: [directory.appendingPathComponent("public").path, "/definitely/not/here"]))
        XCTAssertThrowsError(try StaticFiles(roots: []))
    }

    /// An app's directory over a library's: the first root that has a path answers, each
    /// root keeps the path rules (a link leaving the upper root does not reach the lower).
    func testLayeredRootsServeTheUpperFileFirst() throws {
        let fileManager = FileManager.default
        let upper = directory.appendingPathComponent("app")
        try fileManager.createDirectory(at: upper.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try "app's own\n".write(to: upper.appendingPathComponent("a.txt"), atomically: true, encoding: .utf8)
        try "only in the app\n".write(to: upper.appendingPathComponent("mine.txt"), atomically: true, encoding: .utf8)
        try fileManager.createSymbolicLink(atPath: upper.appendingPathComponent("escape.txt").path, withDestinationPath: "../secret.txt")
        let files = try StaticFiles(roots: [upper.path, directory.appendingPathComponent("public").path])
        XCTAssertEqual(files.roots.count, 2)
        server.stop()
        server = try HTTPTestServer { router in files.register(on: router) }

        XCTAssertEqual(try fetch("/a.txt").body, "app's own\n")           // upper wins
        XCTAssertEqual(try fetch("/mine.txt").body, "only in the app\n")  // upper only
        XCTAssertEqual(try fetch("/style.css").body, "body { color: red }\n")  // lower only
        XCTAssertEqual(try fetch("/").body, "<h1>home</h1>\n")           // no index in the upper: the lower's
        XCTAssertEqual(try fetch("/sub/").body, "<p>sub</p>\n")          // upper's sub/ has no index either
        XCTAssertEqual(try fetch("/nope.txt").status, 404)
        for path in ["/escape.txt", "/../secret.txt", "/%2e%2e/secret.txt", "/up/secret.txt", "/sibling/secret.txt"] {
            let response = try fetch(path)
            XCTAssertTrue(response.status == 404 || response.status == 400, "\(path) -> \(response.status)")
            XCTAssertFalse(response.body.contains("SECRET"), path)
        }
    }
}
