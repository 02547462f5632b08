import LoopTestSupport
import EventLoop
import Foundation
import XCTest

final class WakeupTests: XCTestCase {
    func testWakeFromAnotherThreadRunsTheHandlerOnTheLoopThread() throws {
        let runner = try LoopThread()
        defer { runner.stop() }
        let loop = runner.loop
        let calls = Recorder<Bool>()
        let wakeup = try runner.sync { try Wakeup(loop: loop) { calls.append(loop.isLoopThread) } }
        wakeup.wake()
        XCTAssertTrue(calls.wait(for: 1))
        XCTAssertEqual(calls.values, [true])
        try runner.sync { wakeup.close() }
    }

    func testWakeAfterCloseDoesNothing() throws {
        let runner = try LoopThread()
        defer { runner.stop() }
        let loop = runner.loop
        let calls = Recorder<Int>()
        let closed = Gate()
        let wakeup = try runner.sync { try Wakeup(loop: loop) { calls.append(1) } }
        try runner.sync { wakeup.close { closed.open() } }
        XCTAssertTrue(closed.wait())
        XCTAssertTrue(wakeup.isClosed)
        wakeup.wake()
        try runner.sync {}  // a full loop turn after the wake
        XCTAssertEqual(calls.values, [])
    }

    func testCloseReleasesTheWakeup() throws {
        let runner = try LoopThread()
        defer { runner.stop() }
        let loop = runner.loop
        let released = WeakBox<Wakeup>()
        let closed = Gate()
        try runner.sync {
            let wakeup = try Wakeup(loop: loop) {}
            released.value = wakeup
            wakeup.close { closed.open() }
        }
        XCTAssertTrue(closed.wait())
        XCTAssertTrue(eventually { released.value == nil }, "a closed Wakeup leaked")
    }
}
