import LoopTestSupport
import EventLoop
import Foundation
import RxCore
import XCTest

final class LoopTests: XCTestCase {
    func testRunBlocksUntilStopFromAnotherThread() throws {
        let runner = try LoopThread()
        XCTAssertTrue(runner.loop.isRunning)
        runner.stop()
        XCTAssertFalse(runner.loop.isRunning)
    }

    func testStopBeforeRunMakesRunReturnAtOnce() throws {
        let loop = try EventLoop()
        loop.stop()
        let returned = Gate()
        Thread {
            loop.run()
            returned.open()
        }.start()
        XCTAssertTrue(returned.wait(), "run() ignored a stop() made before it")
    }

    func testRunCanBeCalledAgainAfterItReturns() throws {
        let loop = try EventLoop()
        for round in 0..<3 {
            let ran = Gate()
            let returned = Gate()
            loop.execute { ran.open() }
            Thread {
                loop.run()
                returned.open()
            }.start()
            XCTAssertTrue(ran.wait(), "round \(round): queued work did not run")
            loop.stop()
            XCTAssertTrue(returned.wait(), "round \(round): run() did not return")
        }
    }

    func testIsLoopThreadOnlyInsideTheLoop() throws {
        let runner = try LoopThread()
        defer { runner.stop() }
        XCTAssertFalse(runner.loop.isLoopThread)
        let loop = runner.loop
        XCTAssertTrue(try runner.sync { loop.isLoopThread })
        let otherThread = Recorder<Bool>()
        Thread { otherThread.append(loop.isLoopThread) }.start()
        XCTAssertTrue(otherThread.wait(for: 1))
        XCTAssertEqual(otherThread.values, [false])
    }

    func testExecuteFromTheLoopThreadRunsInALaterTurnNotInline() throws {
        let runner = try LoopThread()
        defer { runner.stop() }
        let loop = runner.loop
        let order = Recorder<String>()
        try runner.sync {
            loop.execute { order.append("executed") }
            order.append("after execute")
        }
        XCTAssertTrue(order.wait(for: 2))
        XCTAssertEqual(order.values, ["after execute", "executed"])
    }

    func testWorkQueuedBeforeStopRunsBeforeRunReturns() throws {
        let runner = try LoopThread()
        let count = Recorder<Int>()
        for index in 0..<100 {
            runner.loop.execute { count.append(index) }
        }
        runner.stop()
        XCTAssertEqual(count.values, Array(0..<100))
    }

    func testWorkQueuedBeforeRunRunsOnceTheLoopRuns() throws {
        let loop = try EventLoop()
        let ranOnLoop = Recorder<Bool>()
        loop.execute { ranOnLoop.append(loop.isLoopThread) }
        let runner = Gate()
        Thread {
            loop.run()
            runner.open()
        }.start()
        XCTAssertTrue(ranOnLoop.wait(for: 1))
        XCTAssertEqual(ranOnLoop.values, [true])
        loop.stop()
        XCTAssertTrue(runner.wait())
    }

    func testRunInstallsTheLoopAsMainRunLoopAndRestoresThePrevious() throws {
        let before = MainScheduler.runLoop
        let runner = try LoopThread()
        let loop = runner.loop
        XCTAssertTrue(MainScheduler.runLoop === loop)
        XCTAssertTrue(try runner.sync { MainScheduler.runLoop === loop })
        runner.stop()
        XCTAssertFalse(MainScheduler.runLoop === loop)
        XCTAssertTrue(MainScheduler.runLoop === before)
    }

    func testLoopIsReleasedOnceStoppedAndUnreferenced() throws {
        weak var weakLoop: EventLoop?
        try {
            let runner = try LoopThread()
            weakLoop = runner.loop
            let loop = runner.loop
            // Open and close a handle of each kind, so none may keep the loop alive.
            try runner.sync {
                let timer = loop.scheduleTimer(after: .seconds(60)) {}
                timer.close()
                let wakeup = try Wakeup(loop: loop) {}
                wakeup.close()
                let listener = try TCPListener(loop: loop, host: "127.0.0.1", port: 0) { $0.close() }
                listener.close()
            }
            runner.stop()
        }()
        // The loop thread's closure may release its reference just after run() returns.
        XCTAssertTrue(eventually { weakLoop == nil }, "the event loop leaked")
    }
}
