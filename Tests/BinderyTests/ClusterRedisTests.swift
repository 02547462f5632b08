import Bindery
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Durable sessions on a real redis-server: two `BinderyApp`s on their own loops act as two
/// processes sharing one Redis (`--store redis+unix://...`), driven over HTTP with curl.
/// Skipped without redis-server.
final class ClusterRedisTests: XCTestCase {
    private var redis: ClusterRedis!
    private var servers: [BinderyTestServer] = []

    override func setUpWithError() throws {
        redis = try ClusterRedis()
    }

    override func tearDown() {
        for server in servers { server.stop() }
        servers = []
        redis = nil
        super.tearDown()
    }

    private func startServer(grace: Int = 20) throws -> BinderyTestServer {
        let server = try BinderyTestServer(configuration: BinderyApp.Configuration(
            port: 0, sessions: SessionStore.Configuration(gracePeriod: .seconds(grace), strictBindingErrors: false),
            logLevel: .error, store: redis.url))
        servers.append(server)
        XCTAssertTrue(clusterEventually { (try? curlRequest("POST", server.baseURL + "/api/sessions", body: #"{"scene":"echo"}"#))?.status == 201 },
                      "the server never reached its store")
        return server
    }

    private func newSession(_ server: BinderyTestServer, scene: String = "echo") throws -> String {
        let created = try curlRequest("POST", server.baseURL + "/api/sessions", body: #"{"scene":"\#(scene)"}"#)
        XCTAssertEqual(created.status, 201, created.body)
        return try XCTUnwrap(created.json["session"] as? String)
    }

    private func type(_ server: BinderyTestServer, _ token: String, _ text: String, seq: Int, timeout: Int = 10) throws -> CurlResult {
        try curlRequest("POST", server.baseURL + "/api/sessions/\(token)/events",
                        body: #"{"type":"event","seq":\#(seq),"target":"input","event":"editingChanged","value":"\#(text)"}"#,
                        timeout: timeout)
    }

    func testTheAckLeavesOnlyAfterRedisHasTheEvent() throws {
        let server = try startServer()
        let token = try newSession(server)
        try redis.cli(["CLIENT", "PAUSE", "1500", "WRITE"])
        let started = Date()
        let answer = ResultBox()
        let done = DispatchSemaphore(value: 0)
        let baseURL = server.baseURL
        Thread {
            answer.text = (try? curlRequest("POST", baseURL + "/api/sessions/\(token)/events",
                                            body: #"{"type":"event","seq":1,"target":"input","event":"editingChanged","value":"hi"}"#).body) ?? ""
            done.signal()
        }.start()
        usleep(700_000)
        XCTAssertEqual(try redis.cli(["LLEN", "bindery:s:\(token):log"]), "0", "Redis is paused: the event is not there yet")
        XCTAssertEqual(done.wait(timeout: .now() + 0.3), .timedOut, "no ack while Redis does not have the event")
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertGreaterThan(Date().timeIntervalSince(started), 1.2)
        XCTAssertTrue(answer.text.contains(#""ack":1"#), answer.text)
        XCTAssertTrue(answer.text.contains("HI"), answer.text)
        XCTAssertEqual(try redis.cli(["LLEN", "bindery:s:\(token):log"]), "1")
    }

    func testAnotherServerTakesOverAndTheOldOwnersWriteIsFenced() throws {
        let a = try startServer(), b = try startServer()
        let token = try newSession(a)
        XCTAssertTrue(try type(a, token, "typed on a", seq: 1).body.contains(#""ack":1"#))

        let resumed = try curlRequest("GET", b.baseURL + "/api/sessions/\(token)")
        XCTAssertEqual(resumed.status, 200, resumed.body)
        XCTAssertEqual(resumed.json["resumed"] as? Bool, true)
        XCTAssertEqual(resumed.json["session"] as? String, token)
        XCTAssertTrue(resumed.body.contains("TYPED ON A"), resumed.body)
        XCTAssertEqual(try redis.cli(["HGET", "bindery:s:\(token)", "epoch"]), "2")

        let stale = try type(a, token, "stale", seq: 2)
        XCTAssertTrue(stale.body.contains("store-unavailable"), stale.body)
        XCTAssertEqual(try redis.cli(["LLEN", "bindery:s:\(token):log"]), "1", "the fenced write never landed")
        XCTAssertTrue(try type(b, token, "typed on b", seq: 3).body.contains(#""ack":3"#))
        XCTAssertEqual(try redis.cli(["LLEN", "bindery:s:\(token):log"]), "2")
    }

    func testKeysFollowTheGracePeriodAndEndedSessionsLeaveNone() throws {
        let server = try startServer(grace: 20)
        let token = try newSession(server)
        _ = try type(server, token, "x", seq: 1)
        let ttl = Int(try redis.cli(["PTTL", "bindery:s:\(token)"])) ?? -1
        XCTAssertTrue((25_000...30_000).contains(ttl), "TTL = grace + 10 s, got \(ttl) ms")
        let logTTL = Int(try redis.cli(["PTTL", "bindery:s:\(token):log"])) ?? -1
        XCTAssertTrue((25_000...30_000).contains(logTTL), "\(logTTL)")
        XCTAssertTrue(try redis.cli(["KEYS", "bindery:proc:*"]).hasPrefix("bindery:proc:"), "the process lease")
        let memory = Int(try redis.cli(["MEMORY", "USAGE", "bindery:s:\(token)"])) ?? .max
        XCTAssertLessThan(memory, 2048, "an idle session's hash")

        XCTAssertEqual(try curlRequest("DELETE", server.baseURL + "/api/sessions/\(token)").status, 200)
        XCTAssertTrue(clusterEventually { (try? self.redis.cli(["EXISTS", "bindery:s:\(token)", "bindery:s:\(token):log"])) == "0" })
    }

    func testStoreTroubleIsAnsweredStoreUnavailableAndSessionsRecover() throws {
        let server = try startServer()
        let token = try newSession(server)
        XCTAssertTrue(try type(server, token, "before", seq: 1).body.contains(#""ack":1"#))
        redis.stop(signal: SIGKILL)
        XCTAssertTrue(clusterEventually { (try? self.type(server, token, "during", seq: 2).body.contains("store-unavailable")) == true })
        let refused = try curlRequest("POST", server.baseURL + "/api/sessions", body: #"{"scene":"echo"}"#)
        XCTAssertEqual(refused.status, 503)
        XCTAssertEqual(refused.json["error"] as? String, "store-unavailable")

        try redis.start()
        XCTAssertTrue(clusterEventually(timeout: 15) { (try? self.type(server, token, "after", seq: 3).body.contains(#""ack":3"#)) == true })
        let scene = try curlRequest("GET", server.baseURL + "/api/sessions/\(token)")
        XCTAssertTrue(scene.body.contains("AFTER"), scene.body)
        XCTAssertEqual(try redis.cli(["LRANGE", "bindery:s:\(token):log", "0", "-1"]).components(separatedBy: "\n").count, 2,
                       "before and after; nothing acknowledged was lost, nothing refused was kept")
    }

    func testTheSessionHeaderIsOnTheUpgradeAndOnSessionCreationWithAndWithoutAStore() throws {
        let plain = try BinderyTestServer()
        servers.append(plain)
        for server in [try startServer(), plain] {
            let created = try curlRequest("POST", server.baseURL + "/api/sessions", body: #"{"scene":"echo"}"#)
            XCTAssertEqual(created.header("X-Bindery-Session"), created.json["session"] as? String)
            XCTAssertNotNil(created.header("X-Bindery-Session"))
            let upgrade = try curlRequest("GET", server.baseURL + "/ws/echo", extra: [
                "-H", "Connection: Upgrade", "-H", "Upgrade: websocket", "-H", "Sec-WebSocket-Version: 13",
                "-H", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
            ], timeout: 1)
            XCTAssertTrue(upgrade.headers.hasPrefix("HTTP/1.1 101"), upgrade.headers)
            XCTAssertEqual(upgrade.header("X-Bindery-Session")?.count, 22, upgrade.headers)
        }
    }
}
