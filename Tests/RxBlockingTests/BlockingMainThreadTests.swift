import Foundation
import RxBlocking
import RxCore
import XCTest

/// RxBlocking on the thread `MainScheduler` sends work to.
final class BlockingMainThreadTests: XCTestCase {
    func testOnTheMainThreadWorkSentToMainSchedulerStillRuns() throws {
        XCTAssertTrue(Thread.isMainThread, "XCTest runs tests on the main thread")
        // With no Bindery loop installed MainScheduler sends work to the main dispatch
        // queue, which the blocking wait drains by running the main run loop.
        let deferred = Observable.of(1, 2, 3).observe(on: MainScheduler.asyncInstance)
        XCTAssertEqual(try deferred.toBlocking(timeout: 5).toArray(), [1, 2, 3])
        let timer = Observable<Int>.timer(.milliseconds(20), scheduler: MainScheduler.instance)
        XCTAssertEqual(try timer.toBlocking(timeout: 5).first(), 0)
    }

    func testInsideABlockTheMainQueueRunsOnlyTheTimeoutEndsTheWait() {
        // The main queue is serial: while one of its blocks blocks, its later blocks wait.
        let done = expectation(description: "main-queue block returned")
        let outcome = MainOutcome()
        DispatchQueue.main.async {
            let deferred = Observable.of(1).observe(on: MainScheduler.asyncInstance)
            do {
                outcome.value = "\(try deferred.toBlocking(timeout: 0.1).first() as Any)"
            } catch {
                outcome.value = "\(error)"
            }
            done.fulfill()
        }
        wait(for: [done], timeout: 5)
        XCTAssertEqual(outcome.value, "\(RxError.timeout)")
    }

    func testOnAnInstalledLoopThatCannotTurnOnlyTheTimeoutEndsTheWait() throws {
        // A loop whose thread is this one and which only turns when the test says so:
        // what a Bindery loop looks like to code blocking inside one of its callbacks.
        let loop = HeldLoop()
        let previous = MainScheduler.install(loop)
        defer { MainScheduler.uninstall(loop, restoring: previous) }

        let source = Observable.just(1, scheduler: MainScheduler.asyncInstance)
        XCTAssertThrowsError(try source.toBlocking(timeout: 0.05).first()) {
            guard case RxError.timeout = $0 else { return XCTFail("\($0)") }
        }
        XCTAssertEqual(loop.pending, 1)
        // The timed-out subscription was disposed: running the loop later sends nothing.
        var late: [Int] = []
        _ = source.subscribe(onNext: { late.append($0) }).dispose()
        loop.runPending()
        XCTAssertEqual(late, [])
        // Sources that need no loop turn still work there.
        XCTAssertEqual(try Observable.of(1, 2).toBlocking(timeout: 1).toArray(), [1, 2])
    }
}

/// Set and read on the main thread only.
private final class MainOutcome: @unchecked Sendable {
    var value: String?
}

/// A main loop that queues work until `runPending()`; its thread is whichever thread asks.
private final class HeldLoop: MainRunLoop, @unchecked Sendable {
    private let lock = NSLock()
    private var queue: [@Sendable () -> Void] = []

    var isLoopThread: Bool { true }

    var pending: Int {
        lock.lock()
        defer { lock.unlock() }
        return queue.count
    }

    func execute(_ work: @escaping @Sendable () -> Void) {
        lock.lock()
        queue.append(work)
        lock.unlock()
    }

    func schedule(after delay: RxTimeInterval, _ work: @escaping @Sendable () -> Void) -> Disposable {
        execute(work)
        return Disposables.create()
    }

    func runPending() {
        lock.lock()
        let work = queue
        queue.removeAll()
        lock.unlock()
        work.forEach { $0() }
    }
}
