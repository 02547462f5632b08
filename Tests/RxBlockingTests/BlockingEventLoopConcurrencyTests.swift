import EventLoop
import Foundation
import RxBlocking
import RxCore
import XCTest

/// RxBlocking with a real Bindery loop installed as `MainScheduler`'s loop.
final class BlockingEventLoopConcurrencyTests: XCTestCase {
    private var loop: EventLoop!
    private let stopped = DispatchSemaphore(value: 0)

    override func setUpWithError() throws {
        loop = try EventLoop()
        let loop = self.loop!
        let stopped = self.stopped
        Thread.detachNewThread {
            loop.run()
            stopped.signal()
        }
        let deadline = Date().addingTimeInterval(5)
        while !loop.isRunning && Date() < deadline { usleep(1_000) }
        XCTAssertTrue(loop.isRunning)
    }

    override func tearDown() {
        loop.stop()
        XCTAssertEqual(stopped.wait(timeout: .now() + 5), .success)
        loop = nil
        super.tearDown()
    }

    func testBlockingOffTheLoopWaitsForWorkTheLoopRuns() throws {
        let onLoop = Flags()
        let source = Observable.of(1, 2, 3)
            .observe(on: MainScheduler.asyncInstance)
            .do(onNext: { _ in onLoop.record(MainScheduler.isMainThread) })
        XCTAssertEqual(try source.toBlocking(timeout: 5).toArray(), [1, 2, 3])
        XCTAssertEqual(onLoop.values, [true, true, true], "elements arrive on the loop thread")
        let timer = Observable<Int>.timer(.milliseconds(10), scheduler: MainScheduler.instance)
        XCTAssertEqual(try timer.toBlocking(timeout: 5).single(), 0)
    }

    func testBlockingInsideALoopCallbackCanOnlyTimeOut() {
        let done = expectation(description: "loop callback returned")
        let outcome = Outcome()
        loop.execute {
            let deferred = Observable.just(1, scheduler: MainScheduler.asyncInstance)
            // The loop is blocked in this callback, so the deferred element cannot arrive.
            do {
                _ = try deferred.toBlocking(timeout: 0.1).first()
                outcome.set("returned")
            } catch {
                outcome.set("\(error)")
            }
            // Sources that need no loop turn still answer at once.
            if (try? Observable.of(1, 2).toBlocking(timeout: 1).toArray()) != [1, 2] {
                outcome.set("synchronous source failed")
            }
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(outcome.value, "\(RxError.timeout)")
    }
}

private final class Flags: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Bool] = []
    func record(_ value: Bool) { lock.lock(); stored.append(value); lock.unlock() }
    var values: [Bool] { lock.lock(); defer { lock.unlock() }; return stored }
}

private final class Outcome: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: String?
    func set(_ value: String) { lock.lock(); if stored == nil { stored = value }; lock.unlock() }
    var value: String? { lock.lock(); defer { lock.unlock() }; return stored }
}
