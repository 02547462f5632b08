import Bindery
import Foundation
import HTTPServer
import XCTest

/// Resource limits over the wire (issue 8, item 7): sessions per address (429), open
/// WebSockets (503), message size (close 1009) and events per second (`rate-limited`
/// answers on a connection that stays open), driven by `Tests/Integration/bindery_limits.py`
/// (Python `websockets` from the test venv) against an in-process server on 127.0.0.1.
final class ResourceLimitTests: XCTestCase {
    private static let venv = ProcessInfo.processInfo.environment["BINDERY_TEST_VENV"] ?? "/tmp/bindery-test-venv"

    func testLimitsAnswerWithTheirCodesAndTheServerGoesOn() throws {
        let python = Self.venv + "/bin/python"
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw XCTSkip("no Python venv at \(Self.venv): run `make test-deps`")
        }
        let configuration = BinderyApp.Configuration(
            port: 0,
            sessions: SessionStore.Configuration(maxSessionsPerAddress: 3, maxEventsPerSecond: 5, strictBindingErrors: false),
            webSocket: WebSocketConfiguration(maxFrameSize: 1024, maxMessageSize: 1024),
            maxWebSockets: 2, logLevel: .error)
        let server = try BinderyTestServer(configuration: configuration)
        defer { server.stop() }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Integration/bindery_limits.py").path
        let result = try runProcess(python, [script, server.baseURL], timeout: 40)
        XCTAssertEqual(result.status, 0, "\(result.stdout)\n\(result.stderr)")
        XCTAssertTrue(result.stdout.hasPrefix("OK"), result.stdout)
        print("bindery_limits.py: \(result.stdout)", terminator: "")
    }
}
