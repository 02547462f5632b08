import LoopTestSupport
import EventLoop
import Foundation
import RxCore
import XCTest

/// `MainScheduler` with the libuv loop installed and running on a background thread.
/// Cross-thread, so it also runs under ThreadSanitizer (the name contains "Concurrency").
final class MainSchedulerOnLoopConcurrencyTests: XCTestCase {
    private var runner: LoopThread!

    override func setUpWithError() throws {
        runner = try LoopThread()
    }

    override func tearDown() {
        runner.stop()
        runner = nil
    }

    func testNestedScheduleFromTheLoopThreadRunsInRxSwiftOrder() throws {
        // RxSwift's MainSchedulerTests.testMainScheduler_basicScenario.
        let messages = Recorder<Int>()
        try runner.sync {
            _ = MainScheduler.instance.schedule(()) { _ in
                messages.append(1)
                _ = MainScheduler.instance.schedule(()) { _ in
                    messages.append(3)
                    _ = MainScheduler.instance.schedule(()) { _ in
                        messages.append(5)
                        return Disposables.create()
                    }
                    messages.append(4)
                    return Disposables.create()
                }
                messages.append(2)
                return Disposables.create()
            }
        }
        XCTAssertTrue(messages.wait(for: 5))
        XCTAssertEqual(messages.values, [1, 2, 3, 4, 5])
    }

    func testScheduleOnTheLoopThreadWithNothingQueuedRunsAtOnce() throws {
        let order = Recorder<String>()
        try runner.sync {
            _ = MainScheduler.instance.schedule(()) { _ in
                order.append("action")
                return Disposables.create()
            }
            order.append("after schedule")
        }
        XCTAssertEqual(order.values, ["action", "after schedule"])
    }

    func testScheduleFromAnotherThreadHopsOntoTheLoop() throws {
        let loop = runner.loop
        let seen = Recorder<String>()
        _ = MainScheduler.instance.schedule(()) { _ in
            seen.append("loop thread: \(loop.isLoopThread), main thread: \(MainScheduler.isMainThread)")
            return Disposables.create()
        }
        XCTAssertTrue(seen.wait(for: 1))
        XCTAssertEqual(seen.values, ["loop thread: true, main thread: true"])
    }

    func testScheduleFromManyThreadsKeepsPerThreadOrder() throws {
        let loop = runner.loop
        let ran = LoopBox<[[Int]]>(Array(repeating: [], count: 4))
        let offLoop = LoopBox(0)
        let done = Recorder<Int>()
        for thread in 0..<4 {
            Thread {
                for index in 0..<250 {
                    _ = MainScheduler.instance.schedule(()) { _ in
                        if !loop.isLoopThread { offLoop.value += 1 }
                        ran.value[thread].append(index)
                        if index == 249 { done.append(thread) }
                        return Disposables.create()
                    }
                }
            }.start()
        }
        XCTAssertTrue(done.wait(for: 4, timeout: 30))
        let (results, offLoopCount) = try runner.sync { (ran.value, offLoop.value) }
        XCTAssertEqual(offLoopCount, 0)
        XCTAssertEqual(results, Array(repeating: Array(0..<250), count: 4))
    }

    func testAsyncInstanceAlwaysDefers() throws {
        let order = Recorder<String>()
        try runner.sync {
            _ = MainScheduler.asyncInstance.schedule(()) { _ in
                order.append("action")
                return Disposables.create()
            }
            order.append("after schedule")
        }
        XCTAssertTrue(order.wait(for: 2))
        XCTAssertEqual(order.values, ["after schedule", "action"])
    }

    func testIsMainThreadOnlyOnTheLoopThread() throws {
        XCTAssertTrue(try runner.sync { MainScheduler.isMainThread })
        // The test runs on the process main thread, which is not the loop's.
        XCTAssertFalse(MainScheduler.isMainThread)
        let elsewhere = Recorder<Bool>()
        Thread { elsewhere.append(MainScheduler.isMainThread) }.start()
        XCTAssertTrue(elsewhere.wait(for: 1))
        XCTAssertEqual(elsewhere.values, [false])
    }

    func testScheduleRelativeFiresOnTheLoopNoEarlierThanTheDelay() throws {
        let loop = runner.loop
        let results = Recorder<String>()
        let delayMilliseconds = 30
        // Once from another thread (hops onto the loop to arm), once from the loop thread.
        let offLoopStart = monotonicNanoseconds()
        _ = MainScheduler.instance.scheduleRelative((), dueTime: .milliseconds(delayMilliseconds)) { _ in
            let elapsed = (monotonicNanoseconds() - offLoopStart) / 1_000_000
            results.append("off-loop: on loop \(loop.isLoopThread), early \(elapsed < delayMilliseconds)")
            return Disposables.create()
        }
        try runner.sync {
            let onLoopStart = monotonicNanoseconds()
            _ = MainScheduler.instance.scheduleRelative((), dueTime: .milliseconds(delayMilliseconds)) { _ in
                let elapsed = (monotonicNanoseconds() - onLoopStart) / 1_000_000
                results.append("on-loop: on loop \(loop.isLoopThread), early \(elapsed < delayMilliseconds)")
                return Disposables.create()
            }
        }
        XCTAssertTrue(results.wait(for: 2))
        XCTAssertEqual(Set(results.values), ["off-loop: on loop true, early false", "on-loop: on loop true, early false"])
    }

    func testDisposingScheduleRelativeCancelsIt() throws {
        let fired = Recorder<String>()
        let offLoop = MainScheduler.instance.scheduleRelative((), dueTime: .milliseconds(20)) { _ in
            fired.append("disposed off the loop, ran anyway")
            return Disposables.create()
        }
        offLoop.dispose()
        try runner.sync {
            let onLoop = MainScheduler.instance.scheduleRelative((), dueTime: .milliseconds(20)) { _ in
                fired.append("disposed on the loop, ran anyway")
                return Disposables.create()
            }
            onLoop.dispose()
        }
        _ = MainScheduler.instance.scheduleRelative((), dueTime: .milliseconds(60)) { _ in
            fired.append("control")
            return Disposables.create()
        }
        XCTAssertTrue(fired.wait(for: 1))
        XCTAssertEqual(fired.values, ["control"])
    }

    func testNeverDueTimeNeverFires() throws {
        let fired = Recorder<Int>()
        let disposable = runner.loop.schedule(after: .never) { fired.append(1) }
        usleep(20_000)
        disposable.dispose()
        XCTAssertEqual(fired.values, [])
    }
}
