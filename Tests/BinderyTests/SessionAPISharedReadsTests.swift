@testable import Bindery
import Foundation
import LoopTestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Read-your-writes for the HTTP reads of a scene shared across processes
/// (`GET /api/sessions/<id>` and its SSE stream): an edge answers from its mirror only once
/// the mirror holds what the owner had acknowledged when the request came, and 503
/// `store-unavailable` when that cannot be shown. Two `BinderyApp`s on one real
/// redis-server (see ``ClusterRedisTests``), driven with curl. Skipped without redis-server.
final class SessionAPISharedReadsTests: XCTestCase {
    private var redis: RedisServer!
    private var server: BinderyTestServer!

    override func setUpWithError() throws {
        redis = try clusterRedis()
        server = try BinderyTestServer(configuration: BinderyApp.Configuration(
            port: 0, sessions: SessionStore.Configuration(strictBindingErrors: false), logLevel: .error, store: redis.url),
            secondApp: true)
        // Members whose outbox reads a test can hold back (no session exists yet).
        let apps = [server.app, try XCTUnwrap(server.second).app]
        try onLoop {
            for app in apps { app.store?.sharedScenes = app.store?.sharedScenes?.holdable() }
        }
    }

    override func tearDown() {
        server?.stop()
        server = nil
        redis?.stop(signal: SIGTERM)
        redis = nil
        super.tearDown()
    }

    /// One of the two apps, with its address.
    private struct Member {
        let app: BinderyApp
        let baseURL: String
    }

    /// A board session made on one app and read on the other, so both run the board:
    /// (the owner, the edge, the token).
    private func boardOnBothApps() throws -> (owner: Member, edge: Member, token: String) {
        let second = try XCTUnwrap(server.second)
        let members = [Member(app: server.app, baseURL: server.baseURL), Member(app: second.app, baseURL: second.baseURL)]
        var created: CurlResult?
        XCTAssertTrue(clusterEventually {
            created = try? curlRequest("POST", members[0].baseURL + "/api/sessions", body: #"{"scene":"board"}"#)
            return created?.status == 201
        }, "the app never reached its store")
        let token = try XCTUnwrap(created?.json["session"] as? String)
        XCTAssertEqual(try curlRequest("GET", members[1].baseURL + "/api/sessions/\(token)").status, 200)
        var owner: Int?
        XCTAssertTrue(clusterEventually {
            let owners = (try? self.onLoop { members.map { $0.app.store?.sharedScenes?.isOwner(of: "board") == true } }) ?? []
            owner = owners.firstIndex(of: true)
            return owners.filter { $0 }.count == 1
        }, "one owner of the board")
        let index = try XCTUnwrap(owner)
        return (members[index], members[1 - index], token)
    }

    private static func slide(seq: Int, to value: Double) -> String {
        #"{"type":"event","seq":\#(seq),"target":"sharedSlider","event":"valueChanged","value":\#(value)}"#
    }

    func testAReadOnAnEdgeAfterAnEventAcknowledgedThroughTheOwnerHoldsTheWrite() throws {
        let (owner, edge, token) = try boardOnBothApps()
        XCTAssertFalse(try curlRequest("GET", edge.baseURL + "/api/sessions/\(token)").body.contains(#""value":0.7"#))
        // The edge's mirror stops reading the owner's outbox: it falls behind what is acknowledged.
        try onLoop { edge.app.store?.sharedScenes?.holdOutbox(true) }
        let posted = try curlRequest("POST", owner.baseURL + "/api/sessions/\(token)/events", body: Self.slide(seq: 1, to: 0.7))
        XCTAssertTrue(posted.body.hasPrefix(#"{"type":"patch","ack":1"#), "acknowledged: \(posted.body)")

        // Reads on the edge now wait for its mirror, which catches up 0.5 s later.
        let read = try startProcess("/usr/bin/curl", ["-s", "--max-time", "5", "--noproxy", "*", "-w", "\n%{http_code}",
                                                      edge.baseURL + "/api/sessions/\(token)"])
        let stream = try startProcess("/usr/bin/curl", ["-sN", "--max-time", "3", "--noproxy", "*",
                                                        edge.baseURL + "/api/sessions/\(token)/events"])
        Thread.sleep(forTimeInterval: 0.5)
        try onLoop { edge.app.store?.sharedScenes?.holdOutbox(false) }

        let answer = read.finish()
        XCTAssertTrue(answer.hasSuffix("\n200"), answer)
        XCTAssertTrue(answer.hasPrefix(#"{"type":"scene""#) && answer.contains(#""value":0.7"#),
                      "the read holds the write acknowledged elsewhere: \(answer.prefix(400))")
        let events = stream.finish()
        let firstData = events.components(separatedBy: "\n").first { $0.hasPrefix("data: ") } ?? ""
        XCTAssertTrue(events.hasPrefix("event: scene\n"), events)
        XCTAssertTrue(firstData.contains(#""value":0.7"#), "the stream's scene holds the write: \(firstData.prefix(400))")
    }

    func testAReadWhileRedisIsUnreachableIsStoreUnavailableForASharedSceneOnly() throws {
        let (owner, edge, token) = try boardOnBothApps()
        let echo = try curlRequest("POST", edge.baseURL + "/api/sessions", body: #"{"scene":"echo"}"#)
        let echoToken = try XCTUnwrap(echo.json["session"] as? String, echo.body)
        redis.stop(signal: SIGKILL)

        for member in [edge, owner] {
            for path in ["", "/events"] {
                let read = try curlRequest("GET", member.baseURL + "/api/sessions/\(token)\(path)", timeout: 5)
                XCTAssertEqual(read.status, 503, "\(path): \(read.body)")
                XCTAssertEqual(read.json["error"] as? String, "store-unavailable", read.body)
                XCTAssertNotNil(read.json["message"] as? String, read.body)
            }
        }
        // A per-connection session held here is read as before (only its writes are refused).
        let scene = try curlRequest("GET", edge.baseURL + "/api/sessions/\(echoToken)", timeout: 5)
        XCTAssertEqual(scene.status, 200, scene.body)
    }

    /// Runs `body` on the apps' loop and returns what it gives.
    private func onLoop<T>(_ body: @escaping () -> T) throws -> T {
        let slot = LoopSlot<T>()
        let done = DispatchSemaphore(value: 0)
        let work = UncheckedBox(body)
        server.loop.execute {
            slot.value = work.value()
            done.signal()
        }
        guard done.wait(timeout: .now() + 5) == .success, let value = slot.value else { throw TestError("the loop did not run the work") }
        return value
    }
}

/// What a closure run on the loop gave back to the test thread (read after a semaphore).
private final class LoopSlot<T>: @unchecked Sendable {
    var value: T?
}
