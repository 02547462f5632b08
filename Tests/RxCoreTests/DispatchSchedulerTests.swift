import Dispatch
import Foundation
import RxCore
import XCTest

/// Real dispatch queues with short delays: assertions are about order, count and the
/// queue work runs on, never about how long anything took.
final class DispatchSchedulerTests: XCTestCase {
    private let key = DispatchSpecificKey<String>()

    private func serialScheduler(_ name: String = "serial") -> SerialDispatchQueueScheduler {
        SerialDispatchQueueScheduler(internalSerialQueueName: name, serialQueueConfiguration: { [key] queue in
            queue.setSpecific(key: key, value: name)
        })
    }

    /// Waits until everything already scheduled on `scheduler` has run.
    private func barrier(_ scheduler: ImmediateSchedulerType) {
        let done = expectation(description: "barrier")
        _ = scheduler.schedule(()) { _ in
            done.fulfill()
            return Disposables.create()
        }
        wait(for: [done], timeout: 10)
    }

    // MARK: SerialDispatchQueueScheduler

    func testSerialScheduleRunsInOrderOnItsQueue() {
        let scheduler = serialScheduler()
        let log = TimeOpsLog<Int>()
        for i in 0..<200 {
            _ = scheduler.schedule(i) { [key] i in
                XCTAssertEqual(DispatchQueue.getSpecific(key: key), "serial")
                log.append(i)
                return Disposables.create()
            }
        }
        barrier(scheduler)
        XCTAssertEqual(log.values, Array(0..<200))
    }

    func testSerialScheduleDisposedBeforeItRunsIsSkipped() {
        let scheduler = serialScheduler()
        let gate = DispatchSemaphore(value: 0)
        let log = TimeOpsLog<String>()
        _ = scheduler.schedule(()) { _ in
            gate.wait() // hold the queue so the next two are still pending
            return Disposables.create()
        }
        let skipped = scheduler.schedule(()) { _ in log.append("skipped"); return Disposables.create() }
        _ = scheduler.schedule(()) { _ in log.append("kept"); return Disposables.create() }
        skipped.dispose()
        gate.signal()
        barrier(scheduler)
        XCTAssertEqual(log.values, ["kept"])
    }

    func testSerialSchedulerOverAConcurrentQueueNeverOverlaps() {
        let concurrent = DispatchQueue(label: "target", attributes: .concurrent)
        let scheduler = SerialDispatchQueueScheduler(queue: concurrent, internalSerialQueueName: "proxy")
        let tracker = TimeOpsOverlap()
        for _ in 0..<20 {
            _ = scheduler.schedule(()) { _ in
                tracker.enter()
                usleep(1_000) // give an overlap the chance to happen
                tracker.leave()
                return Disposables.create()
            }
        }
        barrier(scheduler)
        XCTAssertEqual(tracker.maximum, 1)
        XCTAssertEqual(tracker.total, 20)
    }

    func testSerialQosInitialiserRunsWork() {
        let scheduler = SerialDispatchQueueScheduler(qos: .userInitiated)
        let log = TimeOpsLog<Int>()
        _ = scheduler.schedule(1) { value in log.append(value); return Disposables.create() }
        barrier(scheduler)
        XCTAssertEqual(log.values, [1])
    }

    func testScheduleRelativeRunsOnceOnTheQueue() {
        let scheduler = serialScheduler()
        let fired = expectation(description: "fired")
        let log = TimeOpsLog<Int>()
        _ = scheduler.scheduleRelative(42, dueTime: .milliseconds(5)) { [key] value in
            XCTAssertEqual(DispatchQueue.getSpecific(key: key), "serial")
            log.append(value)
            fired.fulfill()
            return Disposables.create()
        }
        wait(for: [fired], timeout: 10)
        barrier(scheduler)
        XCTAssertEqual(log.values, [42])
    }

    func testScheduleRelativeRunsInDeadlineOrderAndDisposedOnesNever() {
        let scheduler = serialScheduler()
        let done = expectation(description: "last timer")
        let log = TimeOpsLog<String>()
        let cancelled = scheduler.scheduleRelative("cancelled", dueTime: .milliseconds(10)) { value in
            log.append(value)
            return Disposables.create()
        }
        _ = scheduler.scheduleRelative("second", dueTime: .milliseconds(40)) { value in
            log.append(value)
            done.fulfill()
            return Disposables.create()
        }
        _ = scheduler.scheduleRelative("first", dueTime: .milliseconds(1)) { value in
            log.append(value)
            return Disposables.create()
        }
        cancelled.dispose()
        wait(for: [done], timeout: 10)
        XCTAssertEqual(log.values, ["first", "second"])
    }

    func testDisposingAfterScheduleRelativeRanDisposesWhatTheActionReturned() {
        let scheduler = serialScheduler()
        let fired = expectation(description: "fired")
        let actionResultDisposed = TimeOpsLog<Bool>()
        let scheduled = scheduler.scheduleRelative((), dueTime: .milliseconds(1)) { _ in
            fired.fulfill()
            return Disposables.create { actionResultDisposed.append(true) }
        }
        wait(for: [fired], timeout: 10)
        barrier(scheduler)
        XCTAssertEqual(actionResultDisposed.values, [])
        scheduled.dispose()
        XCTAssertEqual(actionResultDisposed.values, [true])
    }

    func testSchedulePeriodicThreadsStateAndStopsWhenDisposed() {
        let scheduler = serialScheduler()
        let fiveTicks = expectation(description: "five ticks")
        let log = TimeOpsLog<Int>()
        let periodic = scheduler.schedulePeriodic(0, startAfter: .milliseconds(1), period: .milliseconds(2)) { [key] state in
            XCTAssertEqual(DispatchQueue.getSpecific(key: key), "serial")
            log.append(state)
            if state == 4 { fiveTicks.fulfill() }
            return state + 1
        }
        wait(for: [fiveTicks], timeout: 10)
        periodic.dispose()
        barrier(scheduler)
        let ticksAtDispose = log.values.count
        XCTAssertEqual(Array(log.values.prefix(5)), [0, 1, 2, 3, 4])
        // Several periods later, still no new tick.
        let later = expectation(description: "later")
        _ = scheduler.scheduleRelative((), dueTime: .milliseconds(30)) { _ in
            later.fulfill()
            return Disposables.create()
        }
        wait(for: [later], timeout: 10)
        XCTAssertEqual(log.values.count, ticksAtDispose)
        XCTAssertEqual(log.values, Array(0..<ticksAtDispose))
    }

    // MARK: ConcurrentDispatchQueueScheduler

    func testConcurrentSchedulerRunsEverythingOffTheMainThread() {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        let group = DispatchGroup()
        let log = TimeOpsLog<Int>()
        for i in 0..<100 {
            group.enter()
            _ = scheduler.schedule(i) { i in
                XCTAssertFalse(Thread.isMainThread)
                log.append(i)
                group.leave()
                return Disposables.create()
            }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(log.values.sorted(), Array(0..<100))
    }

    func testConcurrentSchedulerRunsActionsAtTheSameTime() {
        // Each action waits until both have started: on a serial queue this would never
        // finish.
        let scheduler = ConcurrentDispatchQueueScheduler(queue: DispatchQueue(label: "c", attributes: .concurrent))
        let condition = NSCondition()
        var started = 0
        let log = TimeOpsLog<String>()
        let bothEnded = expectation(description: "both ended")
        bothEnded.expectedFulfillmentCount = 2
        for _ in 0..<2 {
            _ = scheduler.schedule(()) { _ in
                log.append("started")
                condition.lock()
                started += 1
                condition.broadcast()
                while started < 2 {
                    if !condition.wait(until: Date().addingTimeInterval(10)) { break }
                }
                condition.unlock()
                log.append("ended")
                bothEnded.fulfill()
                return Disposables.create()
            }
        }
        wait(for: [bothEnded], timeout: 15)
        XCTAssertEqual(log.values, ["started", "started", "ended", "ended"])
    }

    func testConcurrentScheduleRelativeAndPeriodic() {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .utility)
        let relative = expectation(description: "relative")
        let ticks = expectation(description: "ticks")
        let log = TimeOpsLog<Int>()
        _ = scheduler.scheduleRelative((), dueTime: .milliseconds(2)) { _ in
            relative.fulfill()
            return Disposables.create()
        }
        let periodic = scheduler.schedulePeriodic(10, startAfter: .milliseconds(1), period: .milliseconds(1)) { state in
            log.append(state)
            if state == 13 { ticks.fulfill() }
            return state + 1
        }
        wait(for: [relative, ticks], timeout: 10)
        periodic.dispose()
        // Ticks of one timer never overlap, so the state runs in order.
        XCTAssertEqual(Array(log.values.prefix(4)), [10, 11, 12, 13])
    }

    func testNeverDueTimeNeverRuns() {
        let scheduler = serialScheduler()
        let log = TimeOpsLog<Int>()
        let scheduled = scheduler.scheduleRelative(1, dueTime: .never) { value in
            log.append(value)
            return Disposables.create()
        }
        barrier(scheduler)
        scheduled.dispose()
        XCTAssertEqual(log.values, [])
    }
}
