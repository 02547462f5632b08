import Bindery
import Foundation
import XCTest

/// What an operator sees over HTTP: JSON errors under /api/, HTML error pages elsewhere,
/// /healthz, /metrics.
final class BinderyAppOperatorTests: XCTestCase {
    private var server: BinderyTestServer!

    override func setUpWithError() throws {
        server = try BinderyTestServer()
    }

    override func tearDown() {
        server?.stop()
        server = nil
        super.tearDown()
    }

    /// (status, content type, body).
    private func request(_ path: String, _ arguments: [String] = []) throws -> (status: Int, type: String, body: String) {
        let result = try runProcess("/usr/bin/curl", ["-s", "--max-time", "5", "--noproxy", "*",
                                                      "-w", "\n%{http_code} %{content_type}"] + arguments + [server.baseURL + path],
                                    timeout: 10)
        var lines = result.stdout.components(separatedBy: "\n")
        let last = lines.removeLast().split(separator: " ", maxSplits: 1)
        return (Int(last.first ?? "") ?? 0, last.count > 1 ? String(last[1]) : "", lines.joined(separator: "\n"))
    }

    func testEveryAPIPathAnswersJSON() throws {
        for (path, arguments, status) in [("/api/nope", [String](), 404), ("/api", [], 404), ("/api/nope/deeper", [], 404),
                                          ("/api/scenes", ["-X", "POST"], 405)] {
            let answer = try request(path, arguments)
            XCTAssertEqual(answer.status, status, path)
            XCTAssertEqual(answer.type, "application/json", path)
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any], answer.body)
            XCTAssertNotNil(object["error"] as? String, answer.body)
            XCTAssertNotNil(object["message"] as? String, answer.body)
        }
    }

    func testOtherErrorsAreStyledPagesWithALinkHome() throws {
        for path in ["/nope.html", "/scene/nope"] {
            let answer = try request(path)
            XCTAssertEqual(answer.status, 404, path)
            XCTAssertEqual(answer.type, "text/html; charset=utf-8", path)
            XCTAssertTrue(answer.body.contains("<a href=\"/\">"), answer.body)
            XCTAssertTrue(answer.body.contains("<style>"), answer.body)
            XCTAssertTrue(answer.body.contains("Not Found"), answer.body)
        }
        let method = try request("/bindery.js", ["-X", "POST"])
        XCTAssertEqual(method.status, 405)
        XCTAssertEqual(method.type, "text/html; charset=utf-8")
    }

    func testHealthzHasVersionAndUptime() throws {
        let answer = try request("/healthz")
        XCTAssertEqual(answer.status, 200)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any])
        XCTAssertEqual(object["status"] as? String, "ok")
        XCTAssertEqual(object["version"] as? String, BinderyApp.version)
        let uptime = try XCTUnwrap(object["uptime_seconds"] as? Double)
        XCTAssertGreaterThanOrEqual(uptime, 0)
        XCTAssertLessThan(uptime, 60)
    }

    func testMetricsHaveLatencyRequestsProcessAndBuildInfo() throws {
        _ = try request("/api/scenes")
        _ = try request("/api/nope")
        let answer = try request("/metrics")
        XCTAssertEqual(answer.status, 200)
        XCTAssertEqual(answer.type, "text/plain; version=0.0.4; charset=utf-8")
        for needle in ["# TYPE bindery_event_duration_seconds histogram", "bindery_event_duration_seconds_bucket{le=\"0.0001\"}",
                       "bindery_http_requests_total{route=\"/api/scenes\",status=\"200\"} 1",
                       "bindery_http_requests_total{route=\"/api/*\",status=\"404\"} 1",
                       "process_resident_memory_bytes ", "process_open_fds ", "process_cpu_seconds_total ",
                       "process_start_time_seconds ", "bindery_build_info{version=\"\(BinderyApp.version)\"} 1",
                       "bindery_events_total ", "bindery_sessions "] {
            XCTAssertTrue(answer.body.contains(needle), "missing \(needle)")
        }
    }
}
