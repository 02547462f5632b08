import EventLoop
import Foundation
import HTTPServer
import XCTest

/// `HTTPServer.onAccess`: one record per answered request, with its route pattern,
/// status, body bytes, duration and client address.
final class HTTPAccessRecordTests: XCTestCase {
    private var server: HTTPTestServer!
    private let records = HTTPTestBox<[HTTPAccessRecord]>([])

    override func setUpWithError() throws {
        try XCTSkipUnless(curlAvailable, "curl is not installed")
        server = try HTTPTestServer { router in
            router.get("/items/:id") { _, responder in responder.respond(.text("item")) }
            router.get("/stream") { _, responder in
                responder.startStream(status: 200)
                responder.write("abc")
                responder.write("de")
                responder.end()
            }
            router.fallback = { _, responder in responder.respond(.error(404)) }
        }
        let records = self.records
        try server.sync { server in server.onAccess = { record in records.value.append(record) } }
    }

    override func tearDown() {
        server?.stop()
        super.tearDown()
    }

    private func waitForRecords(_ count: Int) -> [HTTPAccessRecord] {
        let deadline = Date(timeIntervalSinceNow: 5)
        while records.value.count < count, Date() < deadline { usleep(10_000) }
        return records.value
    }

    func testRecordsRouteStatusBytesAndClient() throws {
        let base = "http://127.0.0.1:\(server.port)"
        _ = try runCurl([base + "/items/42?x=1"])
        _ = try runCurl([base + "/stream"])
        _ = try runCurl([base + "/nope"])
        _ = try runCurl(["-X", "POST", base + "/items/1"])
        let all = waitForRecords(4)
        XCTAssertEqual(all.count, 4)
        guard all.count == 4 else { return }
        XCTAssertEqual(all[0].method, "GET")
        XCTAssertEqual(all[0].path, "/items/42")
        XCTAssertEqual(all[0].route, "/items/:id")
        XCTAssertEqual(all[0].status, 200)
        XCTAssertEqual(all[0].bytes, 4)
        XCTAssertEqual(all[0].remoteAddress?.host, "127.0.0.1")
        XCTAssertGreaterThanOrEqual(all[0].duration, .zero)
        XCTAssertEqual(all[1].route, "/stream")
        XCTAssertEqual(all[1].bytes, 5)           // streamed body, without chunk framing
        XCTAssertNil(all[2].route)                // the fallback
        XCTAssertEqual(all[2].status, 404)
        XCTAssertEqual(all[3].status, 405)
        XCTAssertEqual(all[3].method, "POST")
    }

    func testAMalformedRequestIsRecordedWithoutMethodOrPath() throws {
        let client = try HTTPRawClient(port: server.port)
        client.send("BROKEN\r\n\r\n")
        _ = client.receiveAll()
        let all = waitForRecords(1)
        XCTAssertEqual(all.first?.method, "-")
        XCTAssertEqual(all.first?.path, "-")
        XCTAssertEqual(all.first?.status, 400)
    }
}
