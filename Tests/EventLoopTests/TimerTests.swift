import LoopTestSupport
import EventLoop
import Foundation
import XCTest

final class TimerTests: XCTestCase {
    func testTimersFireInDeadlineOrderOnTheLoopThread() throws {
        let runner = try LoopThread()
        defer { runner.stop() }
        let loop = runner.loop
        let fired = Recorder<String>()
        try runner.sync {
            loop.scheduleTimer(after: .milliseconds(30)) { fired.append("30 ms, on loop: \(loop.isLoopThread)") }
            loop.scheduleTimer(after: .milliseconds(10)) { fired.append("10 ms, on loop: \(loop.isLoopThread)") }
            loop.scheduleTimer(after: .milliseconds(20)) { fired.append("20 ms, on loop: \(loop.isLoopThread)") }
        }
        XCTAssertTrue(fired.wait(for: 3))
        XCTAssertEqual(fired.values, ["10 ms, on loop: true", "20 ms, on loop: true", "30 ms, on loop: true"])
    }

    func testClosedTimerDoesNotFire() throws {
        let runner = try LoopThread()
        defer { runner.stop() }
        let loop = runner.loop
        let fired = Recorder<String>()
        try runner.sync {
            let cancelled = loop.scheduleTimer(after: .milliseconds(10)) { fired.append("cancelled") }
            loop.scheduleTimer(after: .milliseconds(40)) { fired.append("kept") }
            cancelled.close()
        }
        XCTAssertTrue(fired.wait(for: 1))
        // The kept timer fired 30 ms after the cancelled one was due.
        XCTAssertEqual(fired.values, ["kept"])
    }

    func testTimerFiresNoEarlierThanItsDelay() throws {
        let runner = try LoopThread()
        defer { runner.stop() }
        let loop = runner.loop
        let elapsed = Recorder<UInt64>()
        for delay in [1, 7, 25] {
            try runner.sync {
                let start = monotonicNanoseconds()
                loop.scheduleTimer(after: .milliseconds(delay)) { elapsed.append(monotonicNanoseconds() - start) }
            }
        }
        XCTAssertTrue(elapsed.wait(for: 3))
        let sorted = elapsed.values.sorted()
        XCTAssertGreaterThanOrEqual(sorted[0], 1_000_000)
        XCTAssertGreaterThanOrEqual(sorted[1], 7_000_000)
        XCTAssertGreaterThanOrEqual(sorted[2], 25_000_000)
    }

    func testRepeatingTimerFiresUntilClosedAndThenIsReleased() throws {
        let runner = try LoopThread()
        defer { runner.stop() }
        let loop = runner.loop
        let ticks = Recorder<Int>()
        let closed = Gate()
        let weakTimer = LoopBox<LoopTimer?>(nil)
        let released = WeakBox<LoopTimer>()
        try runner.sync {
            var count = 0
            let timer = LoopTimer(loop: loop)
            timer.start(after: .milliseconds(2), repeating: .milliseconds(2)) { [unowned timer] in
                count += 1
                ticks.append(count)
                if count == 3 {
                    timer.close { closed.open() }
                }
            }
            weakTimer.value = timer
            released.value = timer
        }
        XCTAssertTrue(closed.wait())
        XCTAssertTrue(try runner.sync { weakTimer.value!.isClosed && !weakTimer.value!.isActive })
        try runner.sync { weakTimer.value = nil }
        // Closing released the handle's hold on the timer.
        XCTAssertNil(released.value)
        usleep(20_000)
        XCTAssertEqual(ticks.values, [1, 2, 3])
    }

    func testOneShotTimerClosesItselfAfterFiring() throws {
        let runner = try LoopThread()
        defer { runner.stop() }
        let loop = runner.loop
        let fired = Gate()
        let box = LoopBox<LoopTimer?>(nil)
        try runner.sync {
            box.value = loop.scheduleTimer(after: .milliseconds(1)) { fired.open() }
        }
        XCTAssertTrue(fired.wait())
        XCTAssertTrue(try runner.sync { box.value!.isClosed })
    }

    func testStoppedTimerCanBeRestarted() throws {
        let runner = try LoopThread()
        defer { runner.stop() }
        let loop = runner.loop
        let fired = Recorder<String>()
        let box = LoopBox<LoopTimer?>(nil)
        let activity = try runner.sync {
            let timer = LoopTimer(loop: loop)
            timer.start(after: .milliseconds(5)) { fired.append("first") }
            let started = timer.isActive
            timer.stop()
            let stopped = timer.isActive
            timer.start(after: .milliseconds(15)) { fired.append("restarted") }
            box.value = timer
            return [started, stopped]
        }
        XCTAssertEqual(activity, [true, false])
        XCTAssertTrue(fired.wait(for: 1))
        let activeAfterFiring = try runner.sync {
            defer { box.value!.close() }
            return box.value!.isActive
        }
        XCTAssertFalse(activeAfterFiring)
        usleep(10_000)
        XCTAssertEqual(fired.values, ["restarted"])
    }

    func testCloseCallbackRunsOnTheLoopThread() throws {
        let runner = try LoopThread()
        defer { runner.stop() }
        let loop = runner.loop
        let closedOnLoop = Recorder<Bool>()
        try runner.sync {
            let timer = loop.scheduleTimer(after: .seconds(60)) {}
            timer.close { closedOnLoop.append(loop.isLoopThread) }
            timer.close { closedOnLoop.append(false) }  // a second close does nothing
        }
        XCTAssertTrue(closedOnLoop.wait(for: 1))
        usleep(10_000)
        XCTAssertEqual(closedOnLoop.values, [true])
    }
}
