import Dispatch
import Foundation
import RxCore
import RxTesting
import XCTest

final class ObservableObserveOnTests: XCTestCase {
    private let key = DispatchSpecificKey<String>()

    private func serialScheduler() -> SerialDispatchQueueScheduler {
        SerialDispatchQueueScheduler(internalSerialQueueName: "observe-on", serialQueueConfiguration: { [key] queue in
            queue.setSpecific(key: key, value: "observe-on")
        })
    }

    private func barrier(_ scheduler: ImmediateSchedulerType) {
        let done = expectation(description: "barrier")
        _ = scheduler.schedule(()) { _ in done.fulfill(); return Disposables.create() }
        wait(for: [done], timeout: 10)
    }

    /// A source that hands its observer to the test, which then drives it.
    private func manualSource(_ box: TimeOpsObserverBox) -> Observable<Int> {
        Observable.create { observer in
            box.observer = observer
            return Disposables.create { box.disposed = true }
        }
    }

    // MARK: Serial dispatch queue (batched path)

    func testSerialQueueKeepsOrderAndDeliversOnTheQueue() {
        let scheduler = serialScheduler()
        let completed = expectation(description: "completed")
        let log = TimeOpsQueueLog()
        let source = Observable<Int>.create { observer in
            for i in 0..<1_000 { observer.onNext(i) }
            observer.onCompleted()
            return Disposables.create()
        }
        let subscription = source.observe(on: scheduler).subscribe(
            onNext: { [key] value in
                log.append(value, onQueue: DispatchQueue.getSpecific(key: key) == "observe-on")
            },
            onCompleted: { [key] in
                XCTAssertEqual(DispatchQueue.getSpecific(key: key), "observe-on")
                completed.fulfill()
            }
        )
        wait(for: [completed], timeout: 10)
        XCTAssertEqual(log.values, Array(0..<1_000))
        XCTAssertTrue(log.allOnQueue)
        subscription.dispose()
    }

    func testSerialQueueDeliversLaterAndDisposesTheSourceAfterTheTerminalEvent() {
        let scheduler = serialScheduler()
        let box = TimeOpsObserverBox()
        let log = TimeOpsQueueLog()
        var events: [String] = []
        let lock = NSLock()
        _ = manualSource(box).observe(on: scheduler).subscribe(
            onNext: { value in log.append(value, onQueue: true) },
            onError: { _ in lock.lock(); events.append("error"); lock.unlock() }
        )
        box.observer?.onNext(0)
        barrier(scheduler)
        XCTAssertEqual(log.values, [0])
        box.observer?.onNext(1)
        box.observer?.onNext(2)
        barrier(scheduler)
        XCTAssertEqual(log.values, [0, 1, 2])
        XCTAssertFalse(box.disposed)
        box.observer?.onError(TimeOpsError())
        barrier(scheduler)
        lock.lock(); XCTAssertEqual(events, ["error"]); lock.unlock()
        XCTAssertTrue(box.disposed)
    }

    func testSerialQueueDisposeDropsQueuedEvents() {
        let scheduler = serialScheduler()
        let gate = DispatchSemaphore(value: 0)
        let log = TimeOpsQueueLog()
        let terminal = TimeOpsQueueLog()
        _ = scheduler.schedule(()) { _ in gate.wait(); return Disposables.create() }
        let source = Observable<Int>.create { observer in
            observer.onNext(1)
            observer.onNext(2)
            observer.onCompleted()
            return Disposables.create()
        }
        let subscription = source.observe(on: scheduler).subscribe(
            onNext: { log.append($0, onQueue: true) },
            onCompleted: { terminal.append(1, onQueue: true) }
        )
        subscription.dispose() // the queue is held: nothing was delivered yet
        gate.signal()
        barrier(scheduler)
        XCTAssertEqual(log.values, [])
        XCTAssertEqual(terminal.values, [])
    }

    func testSerialQueueEventsGoAheadOfWorkScheduledAfterThem() {
        // As with RxSwift's serial-queue path, an event is placed on the queue when it
        // arrives: work scheduled on the same queue afterwards runs after it. (A pump that
        // delivered one event per scheduled action would let the marker in between.)
        let scheduler = serialScheduler()
        let gate = DispatchSemaphore(value: 0)
        let order = TimeOpsQueueLog()
        _ = scheduler.schedule(()) { _ in gate.wait(); return Disposables.create() }
        let box = TimeOpsObserverBox()
        _ = manualSource(box).observe(on: scheduler).subscribe(onNext: { order.append($0, onQueue: true) })
        box.observer?.onNext(1)
        box.observer?.onNext(2)
        box.observer?.onNext(3)
        _ = scheduler.schedule(()) { _ in order.append(-1, onQueue: true); return Disposables.create() }
        gate.signal()
        barrier(scheduler)
        XCTAssertEqual(order.values, [1, 2, 3, -1])
    }

    func testSerialQueueKeepsTheOrderAcrossStreamsFedFromOneThread() {
        // One producer thread alternates between two streams observed on the same queue:
        // the queue must see the events in the order they were produced, not grouped by
        // stream (a batching drain would deliver a1 a2 before b1).
        let scheduler = serialScheduler()
        let gate = DispatchSemaphore(value: 0)
        _ = scheduler.schedule(()) { _ in gate.wait(); return Disposables.create() }
        let order = TimeOpsQueueLog()
        let a = TimeOpsObserverBox()
        let b = TimeOpsObserverBox()
        _ = manualSource(a).observe(on: scheduler).subscribe(onNext: { order.append($0, onQueue: true) })
        _ = manualSource(b).observe(on: scheduler).subscribe(onNext: { order.append($0, onQueue: true) })
        a.observer?.onNext(1)
        b.observer?.onNext(2)
        a.observer?.onNext(3)
        b.observer?.onNext(4)
        gate.signal()
        barrier(scheduler)
        XCTAssertEqual(order.values, [1, 2, 3, 4])
    }

    func testSerialQueueReentrantEventsKeepOrder() {
        // An observer that feeds the source again while an element is being delivered.
        let scheduler = serialScheduler()
        let box = TimeOpsObserverBox()
        let log = TimeOpsQueueLog()
        let done = expectation(description: "done")
        _ = manualSource(box).observe(on: scheduler).subscribe(onNext: { value in
            log.append(value, onQueue: true)
            if value < 5 { box.observer?.onNext(value + 1) }
            if value == 5 { done.fulfill() }
        })
        box.observer?.onNext(0)
        wait(for: [done], timeout: 10)
        XCTAssertEqual(log.values, [0, 1, 2, 3, 4, 5])
    }

    // MARK: MainScheduler

    func testMainSchedulerOnTheMainThreadDeliversSynchronously() {
        // Let anything another test left on the main queue run first: `instance` is only
        // synchronous when nothing of its own is in flight.
        let drained = expectation(description: "drained")
        DispatchQueue.main.async { drained.fulfill() }
        wait(for: [drained], timeout: 5)

        var received: [Int] = []
        var completed = false
        _ = Observable<Int>.create { observer in
            observer.onNext(1)
            observer.onNext(2)
            observer.onCompleted()
            return Disposables.create()
        }
        .observe(on: MainScheduler.instance)
        .subscribe(onNext: { received.append($0) }, onCompleted: { completed = true })
        XCTAssertEqual(received, [1, 2])
        XCTAssertTrue(completed)
    }

    func testMainSchedulerFromABackgroundThreadHopsToMainInOrder() {
        let completed = expectation(description: "completed")
        let log = TimeOpsQueueLog()
        let source = Observable<Int>.create { observer in
            // AnyObserver is not Sendable; the Rx grammar keeps these calls serial.
            let sendable = TimeOpsUnchecked(observer)
            DispatchQueue.global().async {
                for i in 0..<200 { sendable.value.onNext(i) }
                sendable.value.onCompleted()
            }
            return Disposables.create()
        }
        _ = source.observe(on: MainScheduler.instance).subscribe(
            onNext: { log.append($0, onQueue: Thread.isMainThread) },
            onCompleted: { completed.fulfill() }
        )
        wait(for: [completed], timeout: 10)
        XCTAssertEqual(log.values, Array(0..<200))
        XCTAssertTrue(log.allOnQueue, "every element delivered on the main thread")
    }

    func testMainAsyncInstanceDefers() {
        var received: [Int] = []
        _ = Observable<Int>.create { observer in
            observer.onNext(1)
            return Disposables.create()
        }
        .observe(on: MainScheduler.asyncInstance)
        .subscribe(onNext: { received.append($0) })
        XCTAssertEqual(received, [])
        let drained = expectation(description: "drained")
        DispatchQueue.main.async { drained.fulfill() }
        wait(for: [drained], timeout: 5)
        XCTAssertEqual(received, [1])
    }

    // MARK: Other schedulers (one event per scheduled action)

    func testVirtualTimeEachEventIsScheduled() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .completed(300)])
        let res = scheduler.start { xs.observe(on: scheduler) }
        // `schedule` runs one tick later on the test scheduler.
        XCTAssertEqual(res.events, [.next(211, 2), .next(221, 3), .completed(301)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testVirtualTimeEventsAtTheSameTimeGoOutOnePerAction() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Observable<Int>.create { observer in
                observer.onNext(1)
                observer.onNext(2)
                observer.onError(TimeOpsError())
                return Disposables.create()
            }
            .observe(on: scheduler)
        }
        XCTAssertEqual(res.events, [.next(201, 1), .next(202, 2), .error(203, TimeOpsError())])
    }

    func testVirtualTimeDisposeDropsPendingEvents() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(250, 2), .completed(260)])
        let res = scheduler.start(disposed: 250) { xs.observe(on: scheduler) }
        XCTAssertEqual(res.events, [.next(211, 1)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testConcurrentSchedulerIsSerialisedAndOrdered() {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        let completed = expectation(description: "completed")
        let log = TimeOpsQueueLog()
        let tracker = TimeOpsOverlap()
        let source = Observable<Int>.create { observer in
            for i in 0..<300 { observer.onNext(i) }
            observer.onCompleted()
            return Disposables.create()
        }
        _ = source.observe(on: scheduler).subscribe(
            onNext: { value in
                tracker.enter()
                log.append(value, onQueue: !Thread.isMainThread)
                tracker.leave()
            },
            onCompleted: { completed.fulfill() }
        )
        wait(for: [completed], timeout: 10)
        XCTAssertEqual(log.values, Array(0..<300))
        XCTAssertTrue(log.allOnQueue)
        XCTAssertEqual(tracker.maximum, 1)
    }

    func testCurrentThreadSchedulerDeliversAfterTheSubscribingAction() {
        var log: [String] = []
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            _ = Observable<Int>.create { observer in
                observer.onNext(1)
                return Disposables.create()
            }
            .observe(on: CurrentThreadScheduler.instance)
            .subscribe(onNext: { log.append("next \($0)") })
            log.append("subscribed")
            return Disposables.create()
        }
        XCTAssertEqual(log, ["subscribed", "next 1"])
    }
}

private final class TimeOpsObserverBox: @unchecked Sendable {
    private let lock = NSLock()
    private var _observer: AnyObserver<Int>?
    private var _disposed = false
    var observer: AnyObserver<Int>? {
        get { lock.lock(); defer { lock.unlock() }; return _observer }
        set { lock.lock(); _observer = newValue; lock.unlock() }
    }
    var disposed: Bool {
        get { lock.lock(); defer { lock.unlock() }; return _disposed }
        set { lock.lock(); _disposed = newValue; lock.unlock() }
    }
}

private final class TimeOpsQueueLog: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Int] = []
    private var everyOnQueue = true
    func append(_ value: Int, onQueue: Bool) {
        lock.lock(); storage.append(value); everyOnQueue = everyOnQueue && onQueue; lock.unlock()
    }
    var values: [Int] { lock.lock(); defer { lock.unlock() }; return storage }
    var allOnQueue: Bool { lock.lock(); defer { lock.unlock() }; return everyOnQueue }
}
