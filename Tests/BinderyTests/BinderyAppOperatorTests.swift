@testable import Bindery
@testable import BinderyServer
import Foundation
import XCTest

/// What an operator sees over HTTP: JSON errors under /api/, HTML error pages elsewhere,
/// /healthz, /metrics.
final class BinderyAppOperatorTests: LiveServerTestCase {
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
        // One WebSocket event, so the latency histogram has an observation.
        let python = (ProcessInfo.processInfo.environment["BINDERY_TEST_VENV"] ?? "/tmp/bindery-test-venv") + "/bin/python"
        var events = 0
        if FileManager.default.isExecutableFile(atPath: python) {
            let script = """
                import asyncio, json, sys, websockets
                async def main():
                    async with websockets.connect(sys.argv[1] + "/ws/echo") as ws:
                        json.loads(await ws.recv())
                        await ws.send(json.dumps({"type": "event", "seq": 1, "target": "input", "event": "editingChanged", "value": "hi"}))
                        print(json.loads(await ws.recv())["type"])
                asyncio.run(main())
                """
            let result = try runProcess(python, ["-c", script, server.baseURL.replacingOccurrences(of: "http", with: "ws")], timeout: 20)
            XCTAssertEqual(result.stdout, "patch\n", result.stderr)
            events = 1
        }
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
                       "bindery_events_total ", "bindery_sessions ",
                       "bindery_event_duration_seconds_count \(events)\n"] {
            XCTAssertTrue(answer.body.contains(needle), "missing \(needle)")
        }
    }
}

/// The event latency histogram's buckets and exposition.
final class LatencyHistogramTests: XCTestCase {
    func testBucketsAreCumulativeWithSumAndCount() {
        let histogram = LatencyHistogram()
        histogram.record(nanoseconds: 40_000)       // ≤ 50 µs
        histogram.record(nanoseconds: 50_000)       // ≤ 50 µs (le is inclusive)
        histogram.record(nanoseconds: 300_000)      // ≤ 500 µs
        histogram.record(nanoseconds: 2_000_000_000) // over 1 s
        let text = histogram.render(name: "x", help: "h")
        XCTAssertTrue(text.hasPrefix("# HELP x h\n# TYPE x histogram\n"), text)
        XCTAssertTrue(text.contains("x_bucket{le=\"0.00005\"} 2\n"), text)
        XCTAssertTrue(text.contains("x_bucket{le=\"0.00025\"} 2\n"), text)
        XCTAssertTrue(text.contains("x_bucket{le=\"0.0005\"} 3\n"), text)
        XCTAssertTrue(text.contains("x_bucket{le=\"1\"} 3\n"), text)
        XCTAssertTrue(text.contains("x_bucket{le=\"+Inf\"} 4\n"), text)
        XCTAssertTrue(text.contains("x_sum 2.00039\n"), text)
        XCTAssertTrue(text.hasSuffix("x_count 4\n"), text)
    }
}
