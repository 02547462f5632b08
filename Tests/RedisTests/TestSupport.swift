import EventLoop
import Foundation
import Redis
import XCTest
#if canImport(Glibc)
import Glibc
#endif
import LoopTestSupport

/// A RedisConnection owned by a test, used on its loop.
final class ClientBox: @unchecked Sendable {
    let runner: LoopThread
    var connection: RedisConnection!
    let states = Recorder<RedisConnection.State>()

    init(_ runner: LoopThread, url: String, configuration: RedisConnection.Configuration = .init()) throws {
        self.runner = runner
        try runner.sync { [self] in
            connection = try RedisConnection(url: url, loop: runner.loop, configuration: configuration)
            connection.onStateChange = { [states] in states.append($0) }
            connection.connect()
        }
    }

    var state: RedisConnection.State { (try? runner.sync { [self] in connection.state }) ?? .idle }

    func waitUntilConnected(timeout: TimeInterval = testTimeout) -> Bool {
        eventually(timeout: timeout) { state == .connected }
    }

    /// Sends one command and waits for its result.
    func call(_ command: [String], timeout: Duration? = nil) throws -> Result<RESPValue, RedisError> {
        let result = Recorder<Result<RESPValue, RedisError>>()
        try runner.sync { [self] in connection.send(command, timeout: timeout) { result.append($0) } }
        guard result.wait(for: 1) else { throw TestError("no reply to \(command)") }
        return result.values[0]
    }

    func close() {
        _ = try? runner.sync { [self] in connection.close() }
    }
}
