import Bindery
import Foundation
import XCTest

/// The browser client comes from the library (`BrowserClient`), and an app's own
/// `publicDirectory` is served over it.
final class BinderyAppStaticFilesTests: XCTestCase {
    private var server: BinderyTestServer?
    private var directory: URL?

    override func tearDown() {
        server?.stop()
        if let directory { try? FileManager.default.removeItem(at: directory) }
        super.tearDown()
    }

    private func get(_ path: String) throws -> (status: Int, body: String) {
        let base = try XCTUnwrap(server).baseURL
        let result = try runProcess("/usr/bin/curl", ["-s", "--max-time", "5", "--noproxy", "*", "-w", "\n%{http_code}", base + path],
                                    timeout: 10)
        let lines = result.stdout.components(separatedBy: "\n")
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }

    func testTheClientIsAResourceOfTheLibrary() throws {
        let client = BrowserClient.directory
        for file in ["bindery.js", "bindery.css", "index.html", "scene.html"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: client + "/" + file), "\(client)/\(file)")
        }
    }

    func testServesTheClientWithoutAPublicDirectory() throws {
        server = try BinderyTestServer(configuration: .init(port: 0, logLevel: .error))
        let script = try get("/bindery.js")
        XCTAssertEqual(script.status, 200)
        XCTAssertEqual(script.body, try String(contentsOfFile: BrowserClient.directory + "/bindery.js", encoding: .utf8))
        XCTAssertEqual(try get("/").status, 200)
        let scene = try get("/scene/echo")
        XCTAssertEqual(scene.status, 200)
        XCTAssertEqual(scene.body, try String(contentsOfFile: BrowserClient.directory + "/scene.html", encoding: .utf8))
    }

    func testTheAppsFilesWinOverTheClients() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bindery-app-\(UUID().uuidString)")
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try "<h1>my app</h1>".write(to: directory.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
        try "my page".write(to: directory.appendingPathComponent("mine.html"), atomically: true, encoding: .utf8)
        server = try BinderyTestServer(configuration: .init(port: 0, publicDirectory: directory.path, logLevel: .error))
        XCTAssertEqual(try get("/").body, "<h1>my app</h1>")
        XCTAssertEqual(try get("/mine.html").body, "my page")
        XCTAssertEqual(try get("/bindery.js").status, 200)     // still the client's
        XCTAssertEqual(try get("/scene/echo").status, 200)
    }

    func testWithoutTheClientOnlyTheAppsFiles() throws {
        server = try BinderyTestServer(configuration: .init(port: 0, servesClient: false, logLevel: .error))
        XCTAssertEqual(try get("/bindery.js").status, 404)
        XCTAssertEqual(try get("/scene/echo").status, 404)
    }
}
