import LoopTestSupport
import EventLoop
import Foundation
import XCTest

final class EndOfTurnHookTests: XCTestCase {
    func testScheduledWorkRunsOnceAfterTheTurnsCallbacksAndWithoutATimerDelay() throws {
        let runner = try LoopThread()
        defer { runner.stop() }
        let log = Recorder<String>()
        let hook = LoopBox<EndOfTurnHook?>(nil)
        let started = LoopBox<UInt64>(0)
        try runner.sync {
            hook.value = EndOfTurnHook(loop: runner.loop) {
                log.append("hook after \((monotonicNanoseconds() - started.value) / 1_000) µs")
            }
            started.value = monotonicNanoseconds()
            hook.value!.schedule()
            hook.value!.schedule()  // once per turn, however often scheduled
            log.append("callback")
        }
        XCTAssertTrue(log.wait(for: 2))
        usleep(20_000)
        XCTAssertEqual(log.values.count, 2)
        XCTAssertEqual(log.values.first, "callback")
        // A zero timer would wait for libuv's next whole millisecond.
        let micros = Int(log.values[1].split(separator: " ")[2])!
        XCTAssertLessThan(micros, 900, log.values[1])
        try runner.sync { hook.value!.schedule() }
        XCTAssertTrue(log.wait(for: 3))
        try runner.sync { hook.value!.close() }
    }

    func testAHookScheduledFromAnotherHooksHandlerRunsWithoutWaitingForIO() throws {
        let runner = try LoopThread()
        defer { runner.stop() }
        let log = Recorder<String>()
        let hooks = LoopBox<[EndOfTurnHook]>([])
        try runner.sync {
            let second = EndOfTurnHook(loop: runner.loop) { log.append("second") }
            let first = EndOfTurnHook(loop: runner.loop) {
                log.append("first")
                second.schedule()
            }
            hooks.value = [first, second]
            first.schedule()
        }
        // Nothing else happens on the loop: the second hook must not wait in poll.
        XCTAssertTrue(log.wait(for: 2, timeout: 1), "\(log.values)")
        XCTAssertEqual(log.values, ["first", "second"])
        try runner.sync { hooks.value.forEach { $0.close() } }
    }

    func testAClosedHookNeverRuns() throws {
        let runner = try LoopThread()
        defer { runner.stop() }
        let log = Recorder<String>()
        try runner.sync {
            let hook = EndOfTurnHook(loop: runner.loop) { log.append("ran") }
            hook.schedule()
            hook.close { log.append("closed") }
        }
        XCTAssertTrue(log.wait(for: 1))
        usleep(20_000)
        XCTAssertEqual(log.values, ["closed"])
    }

    func testOutgoingConnectsReportRefusedAndMissingSockets() throws {
        let runner = try LoopThread()
        defer { runner.stop() }
        let log = Recorder<String>()
        try runner.sync {
            // Port 1 on loopback: nothing listens there.
            let connection = LoopBox<TCPConnection?>(nil)
            connection.value = try TCPConnection.connect(to: SocketAddress(host: "127.0.0.1", port: 1), on: runner.loop) { error in
                log.append(error?.name ?? "connected")
                connection.value?.close()
            }
            do {
                _ = try TCPConnection.connect(unixSocketPath: "/nonexistent/bindery.sock", on: runner.loop) { _ in }
            } catch let error as UVError {
                log.append(error.name)
            }
        }
        XCTAssertTrue(log.wait(for: 2))
        XCTAssertEqual(Set(log.values), ["ECONNREFUSED", "ENOENT"])
    }
}
