import Dispatch
import Foundation
import RxCore
import XCTest

/// Runs under the thread sanitizer (`make test-tsan`): several threads producing into,
/// scheduling on and cancelling through the dispatch schedulers and the operators built
/// on them. Assertions are about what ran, never about timing.
final class DispatchSchedulerConcurrencyTests: XCTestCase {
    private let key = DispatchSpecificKey<String>()

    private func serialScheduler(_ name: String) -> SerialDispatchQueueScheduler {
        SerialDispatchQueueScheduler(internalSerialQueueName: name, serialQueueConfiguration: { [key] queue in
            queue.setSpecific(key: key, value: name)
        })
    }

    private func barrier(_ scheduler: ImmediateSchedulerType) {
        let done = expectation(description: "barrier")
        _ = scheduler.schedule(()) { _ in done.fulfill(); return Disposables.create() }
        wait(for: [done], timeout: 30)
    }

    /// A source whose subscription emits `perProducer` elements from each of `producers`
    /// threads at once (element = producer * 100_000 + index), then completes.
    private func concurrentProducer(producers: Int, perProducer: Int) -> Observable<Int> {
        Observable.create { observer in
            let sendable = TimeOpsUnchecked(observer)
            DispatchQueue.concurrentPerform(iterations: producers) { producer in
                for index in 0..<perProducer {
                    sendable.value.onNext(producer * 100_000 + index)
                }
            }
            sendable.value.onCompleted()
            return Disposables.create()
        }
    }

    private func assertEveryProducerInOrder(_ values: [Int], producers: Int, perProducer: Int, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(values.count, producers * perProducer, file: file, line: line)
        for producer in 0..<producers {
            let own = values.filter { $0 / 100_000 == producer }.map { $0 % 100_000 }
            XCTAssertEqual(own, Array(0..<perProducer), "producer \(producer)", file: file, line: line)
        }
    }

    // MARK: observe(on:) from a concurrent producer

    func testObserveOnSerialQueueFromAConcurrentProducer() {
        let scheduler = serialScheduler("observe-on-serial")
        let completed = expectation(description: "completed")
        let log = TimeOpsLog<Int>()
        let wrongQueue = TimeOpsLog<Int>()
        let subscription = concurrentProducer(producers: 8, perProducer: 500)
            .observe(on: scheduler)
            .subscribe(
                onNext: { [key] value in
                    if DispatchQueue.getSpecific(key: key) != "observe-on-serial" { wrongQueue.append(value) }
                    log.append(value)
                },
                onCompleted: { completed.fulfill() }
            )
        wait(for: [completed], timeout: 30)
        assertEveryProducerInOrder(log.values, producers: 8, perProducer: 500)
        XCTAssertEqual(wrongQueue.values, [])
        subscription.dispose()
    }

    func testObserveOnConcurrentSchedulerFromAConcurrentProducer() {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        let completed = expectation(description: "completed")
        let log = TimeOpsLog<Int>()
        let overlap = TimeOpsOverlap()
        _ = concurrentProducer(producers: 4, perProducer: 250)
            .observe(on: scheduler)
            .subscribe(
                onNext: { value in
                    overlap.enter()
                    log.append(value)
                    overlap.leave()
                },
                onCompleted: { completed.fulfill() }
            )
        wait(for: [completed], timeout: 30)
        assertEveryProducerInOrder(log.values, producers: 4, perProducer: 250)
        XCTAssertEqual(overlap.maximum, 1, "observe(on:) never delivers two events at once")
    }

    func testObserveOnMainFromAConcurrentProducer() {
        let completed = expectation(description: "completed")
        let log = TimeOpsLog<Int>()
        let offMain = TimeOpsLog<Int>()
        let source = TimeOpsUnchecked(concurrentProducer(producers: 4, perProducer: 250))
        DispatchQueue.global().async {
            _ = source.value.observe(on: MainScheduler.instance).subscribe(
                onNext: { value in
                    if !Thread.isMainThread { offMain.append(value) }
                    log.append(value)
                },
                onCompleted: { completed.fulfill() }
            )
        }
        wait(for: [completed], timeout: 30)
        assertEveryProducerInOrder(log.values, producers: 4, perProducer: 250)
        XCTAssertEqual(offMain.values, [])
    }

    func testObserveOnDisposedFromAnotherThreadWhileEventsFlow() {
        let scheduler = serialScheduler("observe-on-dispose")
        let log = TimeOpsLog<Int>()
        let running = DispatchSemaphore(value: 0)
        let stop = TimeOpsFlag()
        let source = Observable<Int>.create { observer in
            let sendable = TimeOpsUnchecked(observer)
            DispatchQueue.global().async {
                var i = 0
                while !stop.isSet {
                    sendable.value.onNext(i)
                    if i == 100 { running.signal() }
                    i += 1
                }
            }
            return Disposables.create { stop.set() }
        }
        let subscription = TimeOpsUnchecked(source.observe(on: scheduler).subscribe(onNext: { log.append($0) }))
        XCTAssertEqual(running.wait(timeout: .now() + 30), .success)
        let disposed = expectation(description: "disposed")
        DispatchQueue.global().async {
            subscription.value.dispose()
            disposed.fulfill()
        }
        wait(for: [disposed], timeout: 30)
        barrier(scheduler)
        let countAfterDispose = log.values.count
        barrier(scheduler)
        XCTAssertEqual(log.values.count, countAfterDispose, "nothing delivered after dispose returned")
        XCTAssertEqual(log.values, Array(0..<countAfterDispose), "what was delivered was in order")
        XCTAssertTrue(stop.isSet)
    }

    // MARK: Cancelling scheduled work from another thread

    func testCancellingQueuedActionsFromOtherThreads() {
        let scheduler = serialScheduler("cancel-queued")
        let gate = DispatchSemaphore(value: 0)
        _ = scheduler.schedule(()) { _ in gate.wait(); return Disposables.create() }
        let ran = TimeOpsLog<Int>()
        let scheduled = (0..<200).map { i in
            scheduler.schedule(i) { i in ran.append(i); return Disposables.create() }
        }
        let handles = TimeOpsUnchecked(scheduled)
        DispatchQueue.concurrentPerform(iterations: 100) { pair in
            handles.value[pair * 2].dispose() // every even one
        }
        gate.signal()
        barrier(scheduler)
        XCTAssertEqual(ran.values, Array(stride(from: 1, to: 200, by: 2)))
    }

    func testCancellingTimersFromOtherThreads() {
        let scheduler = serialScheduler("cancel-timers")
        // Hold the queue: timers that come due wait behind this, so a dispose can never
        // lose a race with its timer.
        let gate = DispatchSemaphore(value: 0)
        _ = scheduler.schedule(()) { _ in gate.wait(); return Disposables.create() }
        let ran = TimeOpsLog<Int>()
        let timers = (0..<100).map { i in
            scheduler.scheduleRelative(i, dueTime: .milliseconds(1)) { i in ran.append(i); return Disposables.create() }
        }
        let handles = TimeOpsUnchecked(timers)
        DispatchQueue.concurrentPerform(iterations: 50) { pair in
            handles.value[pair * 2 + 1].dispose() // every odd one
        }
        let allDue = expectation(description: "all due")
        _ = scheduler.scheduleRelative((), dueTime: .milliseconds(20)) { _ in allDue.fulfill(); return Disposables.create() }
        gate.signal()
        wait(for: [allDue], timeout: 30)
        XCTAssertEqual(ran.values.sorted(), Array(stride(from: 0, to: 100, by: 2)))
    }

    func testCancellingAPeriodicTimerFromAnotherThread() {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        let ticks = TimeOpsLog<Int>()
        let started = DispatchSemaphore(value: 0)
        let periodic = TimeOpsUnchecked(scheduler.schedulePeriodic(0, startAfter: .milliseconds(1), period: .milliseconds(1)) { state in
            ticks.append(state)
            if state == 3 { started.signal() }
            return state + 1
        })
        XCTAssertEqual(started.wait(timeout: .now() + 30), .success)
        let disposed = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            periodic.value.dispose()
            disposed.signal()
        }
        XCTAssertEqual(disposed.wait(timeout: .now() + 30), .success)
        // A tick already running when dispose returned may still finish; give it time.
        let settle = expectation(description: "settle")
        _ = scheduler.scheduleRelative((), dueTime: .milliseconds(20)) { _ in settle.fulfill(); return Disposables.create() }
        wait(for: [settle], timeout: 30)
        let count = ticks.values.count
        let later = expectation(description: "later")
        _ = scheduler.scheduleRelative((), dueTime: .milliseconds(20)) { _ in later.fulfill(); return Disposables.create() }
        wait(for: [later], timeout: 30)
        XCTAssertEqual(ticks.values.count, count)
        XCTAssertEqual(ticks.values, Array(0..<count))
    }

    func testDisposingRecursiveWorkFromAnotherThread() {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        let iterations = TimeOpsLog<Int>()
        let started = DispatchSemaphore(value: 0)
        let recursion = TimeOpsUnchecked(scheduler.scheduleRecursive(0) { state, recurse in
            iterations.append(state)
            if state == 10 { started.signal() }
            recurse(state + 1)
        })
        XCTAssertEqual(started.wait(timeout: .now() + 30), .success)
        let disposed = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            recursion.value.dispose()
            disposed.signal()
        }
        XCTAssertEqual(disposed.wait(timeout: .now() + 30), .success)
        let settle = expectation(description: "settle")
        _ = scheduler.scheduleRelative((), dueTime: .milliseconds(20)) { _ in settle.fulfill(); return Disposables.create() }
        wait(for: [settle], timeout: 30)
        let count = iterations.values.count
        let later = expectation(description: "later")
        _ = scheduler.scheduleRelative((), dueTime: .milliseconds(20)) { _ in later.fulfill(); return Disposables.create() }
        wait(for: [later], timeout: 30)
        XCTAssertEqual(iterations.values.count, count, "at most the iteration in flight finished")
        XCTAssertEqual(iterations.values, Array(0..<count))
    }

    // MARK: Time operators on real queues

    func testDebounceOnARealQueueFromAnotherThread() {
        let scheduler = serialScheduler("debounce")
        let completed = expectation(description: "completed")
        let log = TimeOpsLog<Int>()
        let source = Observable<Int>.create { observer in
            let sendable = TimeOpsUnchecked(observer)
            DispatchQueue.global().async {
                for i in 0..<100 { sendable.value.onNext(i) }
                sendable.value.onCompleted()
            }
            return Disposables.create()
        }
        _ = source.debounce(.seconds(10), scheduler: scheduler).subscribe(
            onNext: { log.append($0) },
            onCompleted: { completed.fulfill() }
        )
        wait(for: [completed], timeout: 30)
        // Far apart from each other in time the elements are not: only the last one,
        // flushed by the completion, goes out.
        XCTAssertEqual(log.values, [99])
    }

    func testDelayOnAConcurrentQueueKeepsOrder() {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        let completed = expectation(description: "completed")
        let log = TimeOpsLog<Int>()
        let source = Observable<Int>.create { observer in
            let sendable = TimeOpsUnchecked(observer)
            DispatchQueue.global().async {
                for i in 0..<50 { sendable.value.onNext(i) }
                sendable.value.onCompleted()
            }
            return Disposables.create()
        }
        _ = source.delay(.milliseconds(2), scheduler: scheduler).subscribe(
            onNext: { log.append($0) },
            onCompleted: { completed.fulfill() }
        )
        wait(for: [completed], timeout: 30)
        XCTAssertEqual(log.values, Array(0..<50))
    }

    func testThrottleAndTimeoutUnderConcurrentDisposal() {
        // Subscribe and dispose many time-operator chains from many threads at once while
        // their timers run on a concurrent queue: the sanitizer checks the locking.
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        let delivered = TimeOpsLog<Int>()
        let fallback = TimeOpsLog<Int>()
        DispatchQueue.concurrentPerform(iterations: 16) { i in
            let source = Observable<Int>.create { observer in
                observer.onNext(i)
                observer.onNext(i + 1000)
                return Disposables.create()
            }
            // A timeout long enough never to fire: the first element always goes out at
            // once, the second one when the throttle window ends (if still subscribed).
            let throttled = source
                .throttle(.milliseconds(1), scheduler: scheduler)
                .timeout(.seconds(30), scheduler: scheduler)
                .subscribe(onNext: { delivered.append($0) })
            // A timeout short enough to race the dispose: it may or may not switch.
            let silent = Observable<Int>.create { _ in Disposables.create() }
            let switching = silent
                .timeout(.microseconds(500), other: Observable<Int>.create { observer in
                    observer.onNext(-1)
                    return Disposables.create()
                }, scheduler: scheduler)
                .subscribe(onNext: { fallback.append($0) })
            usleep(UInt32(i % 4) * 500)
            throttled.dispose()
            switching.dispose()
        }
        barrier(scheduler)
        let values = delivered.values
        XCTAssertEqual(Set(values.filter { $0 < 1000 }), Set(0..<16), "every first element went out at once")
        XCTAssertTrue(values.allSatisfy { $0 < 16 || (1000..<1016).contains($0) })
        XCTAssertTrue(fallback.values.allSatisfy { $0 == -1 })
        XCTAssertLessThanOrEqual(fallback.values.count, 16)
    }
}

private final class TimeOpsFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.lock(); value = true; lock.unlock() }
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
}
