import Dispatch
import Foundation
import RxCore
import RxTesting
import XCTest

final class SchedulerRecursiveTests: XCTestCase {
    func testRecursionOnTheCurrentThreadTrampolineDoesNotGrowTheStack() {
        var states: [Int] = []
        _ = CurrentThreadScheduler.instance.scheduleRecursive(0) { state, recurse in
            states.append(state)
            if state < 100_000 { recurse(state + 1) }
        }
        XCTAssertEqual(states.count, 100_001)
        XCTAssertEqual(states.last, 100_000)
    }

    func testEachIterationIsAFreshScheduleOnTheTestScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        var times: [Int] = []
        scheduler.scheduleAt(200) {
            _ = scheduler.scheduleRecursive(0) { state, recurse in
                times.append(scheduler.clock)
                if state < 3 { recurse(state + 1) }
            }
        }
        scheduler.start()
        // `schedule` runs one tick later on the test scheduler, every time.
        XCTAssertEqual(times, [201, 202, 203, 204])
    }

    func testDisposeCancelsThePendingIteration() {
        let scheduler = TestScheduler(initialClock: 0)
        var states: [Int] = []
        var subscription: Disposable?
        scheduler.scheduleAt(200) {
            subscription = scheduler.scheduleRecursive(0) { state, recurse in
                states.append(state)
                recurse(state + 1)
            }
        }
        scheduler.scheduleAt(203) { subscription?.dispose() }
        scheduler.start()
        // Iterations ran at 201 and 202; the dispose at 203 (scheduled first) beats the
        // third one, due at 203 too.
        XCTAssertEqual(states, [0, 1])
        XCTAssertEqual(scheduler.clock, 203, "nothing left scheduled after dispose")
    }

    func testRecursionOnASerialQueueStopsWhenDisposedFromTheAction() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "recursive")
        let stopped = expectation(description: "stopped")
        let states = TimeOpsLog<Int>()
        let holder = TimeOpsDisposableHolder()
        // Hold the queue until the disposable is stored, so iteration 10 can reach it.
        let gate = DispatchSemaphore(value: 0)
        _ = scheduler.schedule(()) { _ in gate.wait(); return Disposables.create() }
        holder.set(scheduler.scheduleRecursive(0) { state, recurse in
            states.append(state)
            if state == 10 {
                holder.dispose()
                stopped.fulfill()
            }
            recurse(state + 1) // after dispose this schedules nothing
        })
        gate.signal()
        wait(for: [stopped], timeout: 10)
        let barrier = expectation(description: "barrier")
        _ = scheduler.schedule(()) { _ in barrier.fulfill(); return Disposables.create() }
        wait(for: [barrier], timeout: 10)
        XCTAssertEqual(states.values, Array(0...10))
    }
}

/// Holds a disposable that may be set after the first iteration already wants it.
private final class TimeOpsDisposableHolder: @unchecked Sendable {
    private let lock = NSLock()
    private var disposable: Disposable?
    private var disposed = false

    func set(_ newValue: Disposable) {
        lock.lock()
        let alreadyDisposed = disposed
        disposable = newValue
        lock.unlock()
        if alreadyDisposed { newValue.dispose() }
    }

    func dispose() {
        lock.lock()
        disposed = true
        let current = disposable
        lock.unlock()
        current?.dispose()
    }
}
