import LoopTestSupport
import EventLoop
import Foundation
@testable import Redis
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Against a real redis-server started per test (skipped when it is not installed).
final class RedisConnectionTests: XCTestCase {
    private var server: RedisServer!
    private var runner: LoopThread!

    override func setUpWithError() throws {
        server = try RedisServer(tcp: true)
        runner = try LoopThread()
    }

    override func tearDown() {
        runner?.stop()
        runner = nil
        server = nil
    }

    func testSetAndGetOverTCPAndOverTheUnixSocket() throws {
        for url in [server.tcpURL, server.unixURL] {
            let client = try ClientBox(runner, url: url)
            XCTAssertTrue(client.waitUntilConnected(), url)
            XCTAssertEqual(try client.call(["SET", "greeting", "héllo \(url)"]), .success(.simpleString("OK")))
            XCTAssertEqual(try client.call(["GET", "greeting"]), .success(.bulkString(Array("héllo \(url)".utf8))))
            XCTAssertEqual(try client.call(["GET", "missing"]), .success(.bulkString(nil)))
            XCTAssertEqual(try client.call(["NOSUCHCOMMAND"]).failureText?.hasPrefix("ERR unknown command"), true)
            XCTAssertEqual(client.states.values.first, .connecting(attempt: 1))
            client.close()
        }
    }

    func testTenThousandPipelinedINCRsGoOutInOneWriteAndAreAnsweredInOrder() throws {
        let client = try ClientBox(runner, url: server.tcpURL)
        XCTAssertTrue(client.waitUntilConnected())
        let replies = Recorder<Int64>()
        let writesBefore = try runner.sync { client.connection.statistics.writes }
        try runner.sync {
            for _ in 0..<10_000 {
                client.connection.send(["INCR", "counter"]) { replies.append((try? $0.get())?.integer ?? -1) }
            }
        }
        XCTAssertTrue(replies.wait(for: 10_000))
        XCTAssertEqual(replies.values, Array(1...10_000))
        XCTAssertEqual(try runner.sync { client.connection.statistics.writes } - writesBefore, 1)
        XCTAssertEqual(try runner.sync { client.connection.pendingCount }, 0)
        client.close()
    }

    func testALuaScriptRunsThroughEVALSHAWithTheNOSCRIPTFallback() throws {
        let client = try ClientBox(runner, url: server.unixURL)
        XCTAssertTrue(client.waitUntilConnected())
        let script = RedisScript("redis.call('SET', KEYS[1], ARGV[1]); return redis.call('INCRBY', KEYS[2], ARGV[2])")
        XCTAssertEqual(try client.call(["SCRIPT", "FLUSH"]), .success(.simpleString("OK")))
        let results = Recorder<Result<RESPValue, RedisError>>()
        try runner.sync {
            client.connection.evalSHA(script, keys: ["k", "n"], arguments: ["v", "5"]) { results.append($0) }
        }
        XCTAssertTrue(results.wait(for: 1))
        XCTAssertEqual(results.values.first, .success(.integer(5)))  // NOSCRIPT, then EVAL
        XCTAssertEqual(try client.call(["SCRIPT", "EXISTS", script.sha1]), .success(.array([.integer(1)])))
        try runner.sync {
            client.connection.evalSHA(script, keys: ["k", "n"], arguments: ["w", "2"]) { results.append($0) }
        }
        XCTAssertTrue(results.wait(for: 2))
        XCTAssertEqual(results.values.last, .success(.integer(7)))
        XCTAssertEqual(try client.call(["GET", "k"]), .success(.bulkString(Array("w".utf8))))
        XCTAssertEqual(try runner.sync { client.connection.statistics.errorReplies }, 1)  // the one NOSCRIPT
        client.close()
    }

    func testARegisteredScriptIsLoadedOnEveryConnect() throws {
        let client = try ClientBox(runner, url: server.tcpURL)
        XCTAssertTrue(client.waitUntilConnected())
        let script = RedisScript("return 'registered'")
        try runner.sync { client.connection.register(script) }
        XCTAssertEqual(try client.call(["SCRIPT", "EXISTS", script.sha1]), .success(.array([.integer(1)])))
        server.stop()
        try server.start()
        XCTAssertTrue(eventually { client.state == .connected })
        XCTAssertEqual(try client.call(["SCRIPT", "EXISTS", script.sha1]), .success(.array([.integer(1)])))
        client.close()
    }

    func testABLPOPLongerThanItsTimeoutFailsWithTimeoutAndTheConnectionIsReset() throws {
        let client = try ClientBox(runner, url: server.tcpURL)
        XCTAssertTrue(client.waitUntilConnected())
        let started = Date()
        XCTAssertEqual(try client.call(["BLPOP", "empty", "5"], timeout: .milliseconds(200)), .failure(.timeout(.milliseconds(200))))
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertGreaterThanOrEqual(elapsed, 0.2)
        XCTAssertLessThan(elapsed, 2)
        XCTAssertTrue(client.states.values.contains { if case .waitingToReconnect = $0 { return true } else { return false } })
        XCTAssertTrue(client.waitUntilConnected())
        XCTAssertEqual(try client.call(["PING"]), .success(.simpleString("PONG")))
        XCTAssertEqual(try runner.sync { client.connection.statistics.timeouts }, 1)
        client.close()
    }

    func testWithDiscardReplyATimedOutCommandKeepsTheConnectionAndItsLateReplyIsDropped() throws {
        let client = try ClientBox(runner, url: server.tcpURL,
                                   configuration: .init(timeoutPolicy: .discardReply))
        XCTAssertTrue(client.waitUntilConnected())
        let results = Recorder<Result<RESPValue, RedisError>>()
        try runner.sync {
            client.connection.send(["BLPOP", "empty", "1"], timeout: .milliseconds(100)) { results.append($0) }
            client.connection.send(["PING"]) { results.append($0) }
        }
        XCTAssertTrue(results.wait(for: 2))
        XCTAssertEqual(results.values, [.failure(.timeout(.milliseconds(100))), .success(.simpleString("PONG"))])
        XCTAssertEqual(client.state, .connected)
        XCTAssertEqual(try runner.sync { client.connection.statistics.connects }, 1)
        client.close()
    }

    func testKillingTheServerMidPipelineFailsEveryPendingCommandAndRestartingItReconnects() throws {
        let client = try ClientBox(runner, url: server.tcpURL,
                                   configuration: .init(reconnectInitialDelay: .milliseconds(20),
                                                        reconnectMaximumDelay: .milliseconds(200)))
        XCTAssertTrue(client.waitUntilConnected())
        let results = Recorder<Result<RESPValue, RedisError>>()
        try runner.sync {
            // The BLPOP holds every reply behind it, so all 1,001 are pending at the kill.
            client.connection.send(["BLPOP", "empty", "10"]) { results.append($0) }
            for index in 0..<1_000 { client.connection.send(["SET", "k\(index)", "v"]) { results.append($0) } }
        }
        XCTAssertTrue(eventually { (try? self.runner.sync { client.connection.statistics.writes }) == 1 })
        usleep(100_000)
        XCTAssertEqual(try runner.sync { client.connection.pendingCount }, 1_001)
        server.stop(signal: SIGKILL)
        XCTAssertTrue(results.wait(for: 1_001))
        XCTAssertEqual(results.values.count, 1_001)
        XCTAssertTrue(results.values.allSatisfy {
            if case .failure(.connectionLost) = $0 { return true } else { return false }
        }, "\(results.values.first!)")

        // While it is down: not connected, at once; attempts back off. The command goes in
        // the same loop turn as the state check: a reconnect attempt starting between the
        // two would queue it behind the attempt instead.
        let whileDown = Recorder<Result<RESPValue, RedisError>>()
        XCTAssertTrue(eventually {
            (try? self.runner.sync { () -> Bool in
                guard case .waitingToReconnect(let attempt, _, _) = client.connection.state, attempt >= 2 else { return false }
                client.connection.send(["PING"]) { whileDown.append($0) }
                return true
            }) == true
        })
        XCTAssertTrue(whileDown.wait(for: 1))
        XCTAssertEqual(whileDown.values.first, .failure(.notConnected))

        try server.start()
        XCTAssertTrue(client.waitUntilConnected())
        XCTAssertEqual(try client.call(["SET", "after", "restart"]), .success(.simpleString("OK")))
        XCTAssertEqual(try client.call(["GET", "after"]), .success(.bulkString(Array("restart".utf8))))
        client.close()
    }

    func testCommandsSentWhileConnectingWaitAndCloseFailsWhatIsPending() throws {
        let results = Recorder<Result<RESPValue, RedisError>>()
        let client = LoopBox<RedisConnection?>(nil)
        let url = server.unixURL
        try runner.sync { [runner] in
            let connection = try RedisConnection(url: url, loop: runner!.loop)
            client.value = connection
            connection.send(["PING"]) { results.append($0) }  // idle: not connected
            connection.connect()
            connection.send(["PING"]) { results.append($0) }  // connecting: queued
            connection.send(["BLPOP", "empty", "10"]) { results.append($0) }
        }
        XCTAssertTrue(results.wait(for: 2))
        usleep(100_000)
        try runner.sync { client.value!.close() }
        XCTAssertTrue(results.wait(for: 3))
        XCTAssertEqual(results.values, [.failure(.notConnected), .success(.simpleString("PONG")), .failure(.closed)])
        try runner.sync { client.value!.send(["PING"]) { results.append($0) } }
        XCTAssertEqual(results.values.last, .failure(.closed))
    }

    func testAnUnreachableServerIsRetriedWithGrowingDelays() throws {
        server.stop()
        let client = try ClientBox(runner, url: server.tcpURL,
                                   configuration: .init(reconnectInitialDelay: .milliseconds(10),
                                                        reconnectMaximumDelay: .milliseconds(80)))
        XCTAssertTrue(eventually {
            client.states.values.contains { if case .waitingToReconnect(5, _, _) = $0 { return true } else { return false } }
        })
        let delays = client.states.values.compactMap { state -> Duration? in
            if case .waitingToReconnect(_, let delay, _) = state { return delay } else { return nil }
        }
        XCTAssertTrue(delays[0] >= .milliseconds(5) && delays[0] <= .milliseconds(10), "\(delays)")
        XCTAssertTrue(delays[1] >= .milliseconds(10) && delays[1] <= .milliseconds(20), "\(delays)")
        XCTAssertTrue(delays[4] >= .milliseconds(40) && delays[4] <= .milliseconds(80), "\(delays)")
        client.close()
    }
}

extension Result where Failure == RedisError {
    var failureText: String? {
        if case .failure(.server(let text)) = self { return text }
        return nil
    }
}

final class RedisEndpointTests: XCTestCase {
    func testURLs() throws {
        XCTAssertEqual(try RedisEndpoint(url: "redis://127.0.0.1:6380"), .tcp(host: "127.0.0.1", port: 6380))
        XCTAssertEqual(try RedisEndpoint(url: "redis://localhost/"), .tcp(host: "127.0.0.1", port: 6379))
        XCTAssertEqual(try RedisEndpoint(url: "redis://[::1]:7000"), .tcp(host: "::1", port: 7000))
        XCTAssertEqual(try RedisEndpoint(url: "redis+unix:///tmp/r.sock"), .unix(path: "/tmp/r.sock"))
        XCTAssertEqual(RedisEndpoint.tcp(host: "::1", port: 7000).description, "redis://[::1]:7000")
        for bad in ["http://x", "redis://", "redis://h:0", "redis://h:99999", "redis://u:p@h:1", "redis://h:1/2", "redis+unix://rel"] {
            XCTAssertThrowsError(try RedisEndpoint(url: bad), bad)
        }
    }
}
