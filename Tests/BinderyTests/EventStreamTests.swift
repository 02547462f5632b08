import Bindery
import Foundation
import XCTest

/// `GET /api/sessions/<id>/events` on a real socket: a viewer who leaves a quiet shared
/// board stops counting in its "N online" at once, not at the next write to its stream.
final class EventStreamTests: LiveServerTestCase {
    private func newBoardSession() throws -> String {
        let created = try curlRequest("POST", server.baseURL + "/api/sessions", body: #"{"scene":"board"}"#)
        XCTAssertEqual(created.status, 201, created.body)
        return try XCTUnwrap(JSONValue.parse(created.body)["session"]?.stringValue)
    }

    /// The board's "N online" as session `id` sees it.
    private func online(_ id: String) throws -> String? {
        let scene = try JSONValue.parse(try curlRequest("GET", server.baseURL + "/api/sessions/\(id)").body)
        return scene["widgets"]?.arrayValue?.first { $0["id"]?.stringValue == "viewers" }?["props"]?["text"]?.stringValue
    }

    private func waitForOnline(_ id: String, _ want: String, within seconds: TimeInterval) throws -> TimeInterval? {
        let start = Date()
        while Date().timeIntervalSince(start) < seconds {
            if try online(id) == want { return Date().timeIntervalSince(start) }
            usleep(10_000)
        }
        return nil
    }

    func testViewerLeavingAQuietBoardStopsCountingWithinASecond() throws {
        let observer = try newBoardSession()  // not attached: counts nobody, itself included
        XCTAssertEqual(try online(observer), "0 online")
        let viewer = try newBoardSession()
        let stream = try startProcess("/usr/bin/curl", ["-sN", "--max-time", "30", "--noproxy", "*",
                                                         server.baseURL + "/api/sessions/\(viewer)/events"])
        XCTAssertNotNil(try waitForOnline(observer, "1 online", within: 5), "the stream's viewer was never counted")
        kill(stream.process.processIdentifier, SIGKILL)  // gone without a word; the board stays quiet
        XCTAssertTrue(stream.finish().hasPrefix("event: scene\n"))
        let took = try waitForOnline(observer, "0 online", within: 1)
        XCTAssertNotNil(took, "still counted 1 s after the viewer left (no write happened to tell)")
    }
}
