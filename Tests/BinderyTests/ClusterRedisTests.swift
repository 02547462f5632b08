import Bindery
import Foundation
import LoopTestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Durable sessions on a real redis-server: `BinderyApp`s sharing one Redis
/// (`--store redis+unix://...`) act as processes, driven over HTTP with curl. Two apps run
/// on one loop (RxCore's `MainScheduler` is the process's one main loop, so apps on two
/// loops would flush on the wrong one). Skipped without redis-server.
final class ClusterRedisTests: XCTestCase {
    private var redis: RedisServer!
    private var servers: [BinderyTestServer] = []

    override func setUpWithError() throws {
        redis = try clusterRedis()
    }

    override func tearDown() {
        for server in servers { server.stop() }
        servers = []
        redis?.stop(signal: SIGTERM)  // not left to deinit: XCTest may keep the case alive
        redis = nil
        super.tearDown()
    }

    private func startServer(grace: Int = 20, secondApp: Bool = false) throws -> BinderyTestServer {
        let server = try BinderyTestServer(configuration: BinderyApp.Configuration(
            port: 0, sessions: SessionStore.Configuration(gracePeriod: .seconds(grace), strictBindingErrors: false),
            logLevel: .error, store: redis.url), secondApp: secondApp)
        servers.append(server)
        XCTAssertTrue(clusterEventually { (try? curlRequest("POST", server.baseURL + "/api/sessions", body: #"{"scene":"echo"}"#))?.status == 201 },
                      "the server never reached its store")
        return server
    }

    private func newSession(_ base: String, scene: String = "echo") throws -> String {
        let created = try curlRequest("POST", base + "/api/sessions", body: #"{"scene":"\#(scene)"}"#)
        XCTAssertEqual(created.status, 201, created.body)
        return try XCTUnwrap(created.json["session"] as? String)
    }

    private func type(_ base: String, _ token: String, _ text: String, seq: Int, timeout: Int = 10) throws -> CurlResult {
        try curlRequest("POST", base + "/api/sessions/\(token)/events",
                        body: #"{"type":"event","seq":\#(seq),"target":"input","event":"editingChanged","value":"\#(text)"}"#,
                        timeout: timeout)
    }

    func testTheAckLeavesOnlyAfterRedisHasTheEvent() throws {
        let server = try startServer()
        let token = try newSession(server.baseURL)
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
        XCTAssertTrue(answer.text.hasPrefix(#"{"type":"patch","ack":1,"#), answer.text)
        XCTAssertTrue(answer.text.contains("HI"), answer.text)
        XCTAssertEqual(try redis.cli(["LLEN", "bindery:s:\(token):log"]), "1")
    }

    func testAnotherServerTakesOverAndTheOldOwnersWriteIsFenced() throws {
        let pair = try startServer(secondApp: true)
        let a = pair, b = try XCTUnwrap(pair.second)
        let token = try newSession(a.baseURL)
        XCTAssertTrue(try type(a.baseURL, token, "typed on a", seq: 1).body.hasPrefix(#"{"type":"patch","ack":1,"#))

        let resumed = try curlRequest("GET", b.baseURL + "/api/sessions/\(token)")
        XCTAssertEqual(resumed.status, 200, resumed.body)
        XCTAssertEqual(resumed.json["resumed"] as? Bool, true)
        XCTAssertEqual(resumed.json["session"] as? String, token)
        XCTAssertTrue(resumed.body.contains("TYPED ON A"), resumed.body)
        XCTAssertEqual(try redis.cli(["HGET", "bindery:s:\(token)", "epoch"]), "2")

        // A request on a for the token takes it back (every HTTP request on a durable
        // session is checked against the store first): epoch 3, B's write included.
        let back = try type(a.baseURL, token, "typed on a again", seq: 2)
        XCTAssertTrue(back.body.hasPrefix(#"{"type":"patch","ack":2,"#), back.body)
        XCTAssertEqual(try redis.cli(["HGET", "bindery:s:\(token)", "epoch"]), "3")

        // A write with an old epoch is refused by Redis itself (the Lua fence).
        let persistence = try XCTUnwrap(b.app.persistence)
        let fenced = ResultBox()
        let done = DispatchSemaphore(value: 0)
        let box = UncheckedBox(persistence)
        servers[0].loop.execute {
            box.value.append(token: token, epoch: 2, seq: 9, event: "{}", state: nil) { result in
                fenced.text = "\(result)"
                done.signal()
            }
        }
        XCTAssertEqual(done.wait(timeout: .now() + 5), .success)
        XCTAssertEqual(fenced.text, "failure(the session is owned by another process)")
        XCTAssertEqual(try redis.cli(["LLEN", "bindery:s:\(token):log"]), "2", "the fenced write never landed")
    }

    func testKeysFollowTheGracePeriodAndEndedSessionsLeaveNone() throws {
        let server = try startServer(grace: 20)
        let token = try newSession(server.baseURL)
        _ = try type(server.baseURL, token, "x", seq: 1)
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
        let token = try newSession(server.baseURL)
        XCTAssertTrue(try type(server.baseURL, token, "before", seq: 1).body.hasPrefix(#"{"type":"patch","ack":1,"#))
        redis.stop(signal: SIGKILL)
        XCTAssertTrue(clusterEventually { (try? self.type(server.baseURL, token, "during", seq: 2).body.contains("store-unavailable")) == true })
        let refused = try curlRequest("POST", server.baseURL + "/api/sessions", body: #"{"scene":"echo"}"#)
        XCTAssertEqual(refused.status, 503)
        XCTAssertEqual(refused.json["error"] as? String, "store-unavailable")

        try redis.start()
        XCTAssertTrue(clusterEventually(timeout: 15) { (try? self.type(server.baseURL, token, "after", seq: 3).body.hasPrefix(#"{"type":"patch","ack":3,"#)) == true })
        let scene = try curlRequest("GET", server.baseURL + "/api/sessions/\(token)")
        XCTAssertTrue(scene.body.contains("AFTER"), scene.body + "\n" + ((try? redis.cli(["LRANGE", "bindery:s:\(token):log", "0", "-1"])) ?? ""))
        XCTAssertEqual(try redis.cli(["LRANGE", "bindery:s:\(token):log", "0", "-1"]).components(separatedBy: "\n").count, 2,
                       "before and after; nothing acknowledged was lost, nothing refused was kept")
    }

    func testTheSessionHeaderIsOnTheUpgradeAndOnSessionCreationWithAndWithoutAStore() throws {
        for makeServer in [{ try self.startServer() }, { try BinderyTestServer() }] {
            let server = try makeServer()
            defer { server.stop() }
            servers.removeAll { $0 === server }
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

    func testASharedScenesTokenIsFoundOnAnotherServerWithoutAJournal() throws {
        let pair = try startServer(secondApp: true)
        let a = pair, b = try XCTUnwrap(pair.second)
        let token = try newSession(a.baseURL, scene: "board")
        XCTAssertTrue(clusterEventually { (try? self.redis.cli(["HGET", "bindery:s:\(token)", "scene"])) == "board" },
                      "the token is recorded with its scene")
        let ttl = Int(try redis.cli(["PTTL", "bindery:s:\(token)"])) ?? -1
        XCTAssertTrue((25_000...30_000).contains(ttl), "the TTL of a per-connection session, got \(ttl) ms")

        let stream = try curlRequest("GET", b.baseURL + "/api/sessions/\(token)/events", timeout: 1)
        XCTAssertTrue(stream.headers.hasPrefix("HTTP/1.1 200"), stream.headers)
        XCTAssertTrue(stream.body.contains(token), "the event stream resumes the session: \(stream.body.prefix(200))")
        let found = try curlRequest("GET", b.baseURL + "/api/sessions/\(token)")
        XCTAssertEqual(found.status, 200, found.body)
        XCTAssertEqual(found.json["session"] as? String, token, found.body)
        XCTAssertEqual(try redis.cli(["HGET", "bindery:s:\(token)", "epoch"]), "2", "b took the record over")
        let event = try curlRequest("POST", b.baseURL + "/api/sessions/\(token)/events",
                                    body: #"{"type":"event","seq":1,"target":"sharedSlider","event":"valueChanged","value":0.5}"#)
        XCTAssertNotEqual(event.status, 404, event.body)
        XCTAssertEqual(try redis.cli(["EXISTS", "bindery:s:\(token):log"]), "0", "a shared session has no journal")

        XCTAssertEqual(try curlRequest("DELETE", b.baseURL + "/api/sessions/\(token)").status, 200)
        XCTAssertTrue(clusterEventually { (try? self.redis.cli(["EXISTS", "bindery:s:\(token)"])) == "0" }, "ended: no keys")
    }

    func testASharedScenesHTTPEventsAreAnsweredOnEveryServer() throws {
        let pair = try startServer(secondApp: true)
        let a = pair, b = try XCTUnwrap(pair.second)
        let token = try newSession(a.baseURL, scene: "board")
        for (index, base) in [a.baseURL, b.baseURL].enumerated() {
            let value = Double(index + 1) / 10
            let one = try curlRequest("POST", base + "/api/sessions/\(token)/events",
                                      body: #"{"type":"event","seq":\#(index + 1),"target":"sharedSlider","event":"valueChanged","value":\#(value)}"#)
            XCTAssertEqual(one.status, 200, one.body)
            XCTAssertTrue(one.body.hasPrefix(#"{"type":"patch","ack":\#(index + 1)"#), "the owner's answer, not null: \(one.body)")
        }
        // An array: each answer in its place, the one refused at once too.
        let many = try curlRequest("POST", b.baseURL + "/api/sessions/\(token)/events", body: """
            [{"type":"event","seq":10,"target":"sharedSlider","event":"valueChanged","value":0.5},
             {"type":"event","seq":11,"target":"sharedSlider"},
             {"type":"event","seq":12,"target":"nope","event":"valueChanged","value":1}]
            """)
        XCTAssertEqual(many.status, 200, many.body)
        let answers = (try? JSONSerialization.jsonObject(with: Data(many.body.utf8))) as? [[String: Any]] ?? []
        XCTAssertEqual(answers.map { $0["type"] as? String }, ["patch", "error", "error"], many.body)
        XCTAssertEqual(answers.map { $0["ack"] as? Int }, [10, 11, 12], many.body)
        XCTAssertEqual(answers.last?["code"] as? String, "unknown-target", "the owner's refusal: \(many.body)")
        let scene = try curlRequest("GET", a.baseURL + "/api/sessions/\(token)")
        XCTAssertTrue(scene.body.contains(#""value":0.5"#), "applied: \(scene.body.prefix(300))")
    }

    func testAJournalPastTheCapIsKeptWholeForASceneWithoutEncodedState() throws {
        let pair = try startServer(secondApp: true)
        let a = pair, b = try XCTUnwrap(pair.second)
        let token = try newSession(a.baseURL)
        let count = 1_005
        let events = (1...count).map { #"{"type":"event","seq":\#($0),"target":"input","event":"editingChanged","value":"v\#($0)"}"# }
        let sent = try curlRequest("POST", a.baseURL + "/api/sessions/\(token)/events", body: "[" + events.joined(separator: ",") + "]",
                                   timeout: 30)
        XCTAssertEqual(sent.status, 200)
        XCTAssertTrue(sent.body.contains(#""ack":\#(count),"#), "all acknowledged")
        XCTAssertEqual(try redis.cli(["LLEN", "bindery:s:\(token):log"]), "\(count)", "nothing dropped")
        XCTAssertEqual(try redis.cli(["HGET", "bindery:s:\(token)", "seq"]), "\(count)")

        let resumed = try curlRequest("GET", b.baseURL + "/api/sessions/\(token)")
        XCTAssertEqual(resumed.status, 200)
        XCTAssertTrue(resumed.body.contains(#""resumed":true"#), resumed.body)
        XCTAssertFalse(resumed.body.contains("restored"), "exact")
        XCTAssertTrue(resumed.body.contains(#""text":"V1005""#), "every event replayed: \(resumed.body)")
    }

    func testATakeoverAsksALiveOwnerToReleaseFirstAndWaitsAtMost200msForOneThatDoesNotAnswer() throws {
        let pair = try startServer(secondApp: true)
        let a = pair, b = try XCTUnwrap(pair.second)
        let sessions = { (base: String) -> Int? in (try? curlRequest("GET", base + "/healthz"))?.json["sessions"] as? Int }
        let token = try newSession(a.baseURL)
        XCTAssertEqual(try type(a.baseURL, token, "live", seq: 1).status, 200)
        let heldBefore = try XCTUnwrap(sessions(a.baseURL))

        // A live owner releases it (its writes flushed) before B loads the journal.
        var started = Date()
        let taken = try curlRequest("GET", b.baseURL + "/api/sessions/\(token)")
        let live = Date().timeIntervalSince(started)
        XCTAssertEqual(taken.status, 200)
        XCTAssertTrue(taken.body.contains(#""value":"LIVE""#) || taken.body.contains(#""text":"LIVE""#), taken.body)
        XCTAssertLessThan(live, 0.2, "a live owner answers the hint well within the wait")
        XCTAssertEqual(sessions(a.baseURL), heldBefore - 1, "A let the session go at once, not at its next refresh")
        XCTAssertEqual(try redis.cli(["HGET", "bindery:s:\(token)", "epoch"]), "2")

        // An owner whose lease is alive but who does not answer (paused, partitioned): B
        // waits for it at most 200 ms, then raises the epoch anyway (fencing keeps it safe).
        let silent = try newSession(a.baseURL)
        try redis.cli(["SET", "bindery:proc:ghost-1", "123", "PX", "10000"])
        try redis.cli(["HSET", "bindery:s:\(silent)", "owner", "ghost-1:123"])
        started = Date()
        XCTAssertEqual(try curlRequest("GET", b.baseURL + "/api/sessions/\(silent)").status, 200)
        let waited = Date().timeIntervalSince(started)
        XCTAssertGreaterThanOrEqual(waited, 0.19, "waited for the owner's answer")
        XCTAssertLessThan(waited, 1.5, "then took it over")
        XCTAssertEqual(try redis.cli(["HGET", "bindery:s:\(silent)", "epoch"]), "2")

        // An owner whose hint reader is no longer connected to Redis (a process that
        // died: its sockets closed) is not waited for, though its lease lives on.
        let dead = try newSession(a.baseURL)
        try redis.cli(["SET", "bindery:proc:dead-3", "789", "PX", "10000"])
        try redis.cli(["SET", "bindery:proc:dead-3:reader", "987654321", "PX", "10000"])
        try redis.cli(["HSET", "bindery:s:\(dead)", "owner", "dead-3:789"])
        started = Date()
        XCTAssertEqual(try curlRequest("GET", b.baseURL + "/api/sessions/\(dead)").status, 200)
        XCTAssertLessThan(Date().timeIntervalSince(started), 0.15, "its reader is gone: nobody to wait for")
        XCTAssertEqual(try redis.cli(["HGET", "bindery:s:\(dead)", "epoch"]), "2")

        // An owner whose lease ran out is not asked.
        let orphan = try newSession(a.baseURL)
        try redis.cli(["HSET", "bindery:s:\(orphan)", "owner", "gone-2:456"])
        started = Date()
        XCTAssertEqual(try curlRequest("GET", b.baseURL + "/api/sessions/\(orphan)").status, 200)
        XCTAssertLessThan(Date().timeIntervalSince(started), 0.19, "nobody to wait for")
    }

    func testADeleteDuringAStoreOutageIsMadeWhenTheStoreIsBack() throws {
        let server = try startServer()
        let token = try newSession(server.baseURL)
        _ = try type(server.baseURL, token, "x", seq: 1)
        redis.stop(signal: SIGKILL)
        XCTAssertEqual(try curlRequest("DELETE", server.baseURL + "/api/sessions/\(token)").status, 200)
        try redis.start()
        XCTAssertTrue(clusterEventually(timeout: 15) {
            (try? self.redis.cli(["EXISTS", "bindery:s:\(token)", "bindery:s:\(token):log"])) == "0"
        }, "the delete is retried once the store is back, not left to the TTL")
    }
}
