import LoopTestSupport
import EventLoop
import Foundation
@testable import Redis
import XCTest

/// Against a fake server on the loop that answers what the test tells it to, to reach
/// what a real Redis never does: malformed replies and replies nobody asked for.
final class RedisConnectionProtocolTests: XCTestCase {
    private var runner: LoopThread!
    private let listener = LoopBox<TCPListener?>(nil)
    private let accepted = Recorder<Int>()

    override func setUpWithError() throws {
        runner = try LoopThread()
    }

    override func tearDown() {
        _ = try? runner.sync { [listener] in listener.value?.close() }
        runner.stop()
    }

    /// Starts a server that answers every read with `answer` (per connection: the n-th
    /// connection gets `answers[min(n, last)]`).
    private func startServer(answers: [String]) throws -> Int {
        let accepted = self.accepted
        let count = LoopBox(0)
        return try runner.sync { [listener, runner] in
            listener.value = try TCPListener(loop: runner!.loop, host: "127.0.0.1", port: 0) { connection in
                let answer = answers[min(count.value, answers.count - 1)]
                count.value += 1
                accepted.append(count.value)
                try? connection.startReading { event in
                    if case .bytes = event {
                        try? connection.write(WriteBuffer(answer))
                    } else {
                        connection.close()
                    }
                }
            }
            return listener.value!.port
        }
    }

    func testAMalformedReplyFailsThePendingCommandsWithAProtocolErrorAndReconnects() throws {
        let port = try startServer(answers: ["+OK\r\n!garbage\r\n", "+PONG\r\n"])
        let client = try ClientBox(runner, url: "redis://127.0.0.1:\(port)",
                                   configuration: .init(reconnectInitialDelay: .milliseconds(5)))
        XCTAssertTrue(client.waitUntilConnected())
        let results = Recorder<Result<RESPValue, RedisError>>()
        try runner.sync {
            for _ in 0..<3 { client.connection.send(["PING"]) { results.append($0) } }
        }
        XCTAssertTrue(results.wait(for: 3))
        XCTAssertEqual(results.values, [.success(.simpleString("OK")),
                                        .failure(.protocolError(.invalidType(UInt8(ascii: "!")))),
                                        .failure(.protocolError(.invalidType(UInt8(ascii: "!"))))])
        XCTAssertTrue(accepted.wait(for: 2))
        XCTAssertTrue(client.waitUntilConnected())
        XCTAssertEqual(try client.call(["PING"]), .success(.simpleString("PONG")))
        client.close()
    }

    func testAReplyNobodyAskedForResetsTheConnection() throws {
        let port = try startServer(answers: ["+ONE\r\n+TWO\r\n", "+PONG\r\n"])
        let client = try ClientBox(runner, url: "redis://127.0.0.1:\(port)",
                                   configuration: .init(reconnectInitialDelay: .milliseconds(5)))
        XCTAssertTrue(client.waitUntilConnected())
        XCTAssertEqual(try client.call(["PING"]), .success(.simpleString("ONE")))
        XCTAssertTrue(eventually { client.states.values.contains {
            if case .waitingToReconnect(_, _, "reply with no command pending") = $0 { return true } else { return false }
        } })
        XCTAssertTrue(client.waitUntilConnected())
        XCTAssertEqual(try client.call(["PING"]), .success(.simpleString("PONG")))
        client.close()
    }
}
