import LoopTestSupport
import EventLoop
import Foundation
import XCTest

/// Cross-thread use of the loop. Runs under ThreadSanitizer too (`make test-tsan`), so
/// every hand-off here goes through something TSan understands (pthread locks, NSCondition).
final class EventLoopConcurrencyTests: XCTestCase {
    private static let threads = 4
    private static let closuresPerThread = 1_000

    func testExecuteFromFourThreadsRunsEveryClosureOnceOnTheLoopInPerThreadOrder() throws {
        let runner = try LoopThread()
        defer { runner.stop() }
        let loop = runner.loop
        let total = Self.threads * Self.closuresPerThread
        // Touched only on the loop thread, so appends need no lock: TSan would see it if not.
        let ran = LoopBox<[(thread: Int, index: Int)]>([])
        let offLoop = LoopBox(0)
        let allRan = Gate()
        let go = Gate()
        for thread in 0..<Self.threads {
            Thread {
                _ = go.wait()
                for index in 0..<Self.closuresPerThread {
                    loop.execute {
                        if !loop.isLoopThread { offLoop.value += 1 }
                        ran.value.append((thread, index))
                        if ran.value.count == total { allRan.open() }
                    }
                }
            }.start()
        }
        go.open()
        XCTAssertTrue(allRan.wait(timeout: 30))
        let (records, offLoopCount) = try runner.sync { (ran.value.map { [$0.thread, $0.index] }, offLoop.value) }

        XCTAssertEqual(offLoopCount, 0)
        XCTAssertEqual(records.count, total)
        for thread in 0..<Self.threads {
            let indices = records.filter { $0[0] == thread }.map { $0[1] }
            XCTAssertEqual(indices, Array(0..<Self.closuresPerThread), "thread \(thread): lost, repeated or reordered work")
        }
        // Let late duplicates (there must be none) show up before counting again.
        try runner.sync {}
        XCTAssertEqual(try runner.sync { ran.value.count }, total)
    }

    func testStopFromAnotherThreadWhileOthersKeepSubmitting() throws {
        let runner = try LoopThread()
        let loop = runner.loop
        let submitted = Recorder<Int>()
        let keepGoing = LockedFlag(true)
        var submitters: [Gate] = []
        for _ in 0..<3 {
            let done = Gate()
            submitters.append(done)
            Thread {
                var count = 0
                while keepGoing.value {
                    loop.execute {}
                    count += 1
                }
                submitted.append(count)
                done.open()
            }.start()
        }
        usleep(20_000)
        runner.stop()  // asserts that run() returned
        keepGoing.value = false
        for done in submitters { XCTAssertTrue(done.wait()) }
        XCTAssertEqual(submitted.values.count, 3)
    }

    func testWakeupsFromManyThreadsCoalesceAndTheHandlerSeesEveryUpdate() throws {
        let runner = try LoopThread()
        defer { runner.stop() }
        let loop = runner.loop
        let pending = Recorder<Int>()  // what the wakers left for the handler
        let handled = LoopBox(0)
        let handlerCalls = LoopBox(0)
        let allHandled = Gate()
        let total = Self.threads * 500
        let wakeup = try runner.sync {
            try Wakeup(loop: loop) {
                handlerCalls.value += 1
                handled.value = pending.values.count
                if handled.value == total { allHandled.open() }
            }
        }
        for _ in 0..<Self.threads {
            Thread {
                for index in 0..<500 {
                    pending.append(index)
                    wakeup.wake()
                }
            }.start()
        }
        XCTAssertTrue(allHandled.wait(timeout: 30), "the last wake-up was lost")
        let calls = try runner.sync {
            wakeup.close()
            return handlerCalls.value
        }
        XCTAssertGreaterThanOrEqual(calls, 1)
        XCTAssertLessThanOrEqual(calls, total)
    }

    func testScheduleAfterFromManyThreadsFiresUndisposedWorkOnceAndNeverDisposedWork() throws {
        let runner = try LoopThread()
        defer { runner.stop() }
        let loop = runner.loop
        let perThread = 100
        let fired = Recorder<String>()
        let threadsDone = Recorder<Int>()
        for thread in 0..<Self.threads {
            Thread {
                for index in 0..<perThread {
                    if index.isMultiple(of: 2) {
                        _ = loop.schedule(after: .milliseconds(index % 5)) {
                            fired.append("\(thread)-\(index) on loop: \(loop.isLoopThread)")
                        }
                    } else {
                        // Far enough out that disposing right away always wins the race.
                        let disposable = loop.schedule(after: .milliseconds(300)) {
                            fired.append("\(thread)-\(index) disposed but ran")
                        }
                        disposable.dispose()
                        disposable.dispose()
                    }
                }
                threadsDone.append(thread)
            }.start()
        }
        XCTAssertTrue(threadsDone.wait(for: Self.threads))
        let expected = Self.threads * perThread / 2
        XCTAssertTrue(fired.wait(for: expected))
        usleep(400_000)  // past the disposed timers' due time
        let expectedValues = (0..<Self.threads).flatMap { thread in
            stride(from: 0, to: perThread, by: 2).map { "\(thread)-\($0) on loop: true" }
        }
        XCTAssertEqual(fired.values.sorted(), expectedValues.sorted())
    }

    func testLoopIsReleasedAfterCrossThreadTimersFireOrAreDisposed() throws {
        let released = WeakBox<EventLoop>()
        try {
            let runner = try LoopThread()
            let loop = runner.loop
            released.value = loop
            let fired = Gate()
            _ = loop.schedule(after: .milliseconds(1)) { fired.open() }
            loop.schedule(after: .seconds(60)) {}.dispose()
            XCTAssertTrue(fired.wait())
            try runner.sync {}  // the dispose's hop has run
            runner.stop()
        }()
        XCTAssertTrue(eventually { released.value == nil }, "a timer kept the loop alive")
    }
}

/// A Bool shared between threads.
final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var flag: Bool
    init(_ flag: Bool) { self.flag = flag }
    var value: Bool {
        get { lock.lock(); defer { lock.unlock() }; return flag }
        set { lock.lock(); flag = newValue; lock.unlock() }
    }
}
