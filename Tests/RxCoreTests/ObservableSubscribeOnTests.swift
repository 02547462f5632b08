import Dispatch
import Foundation
import RxCore
import RxTesting
import XCTest

final class ObservableSubscribeOnTests: XCTestCase {
    // MARK: Virtual time (RxSwift's cases: `schedule` runs one tick later)

    func testSubscribesAndDisposesOnTheScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        var subscribedAt = 0
        var disposedAt = 0
        let xs = Observable<Int>.create { _ in
            subscribedAt = scheduler.clock
            return Disposables.create { disposedAt = scheduler.clock }
        }
        let res = scheduler.start { xs.subscribe(on: scheduler) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(subscribedAt, 201)
        XCTAssertEqual(disposedAt, 1001)
    }

    func testCompleted() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createHotObservable([.completed(300)])
        let res = scheduler.start { xs.subscribe(on: scheduler) }
        // The event is not moved; the unsubscription is.
        XCTAssertEqual(res.events, [.completed(300)])
        XCTAssertEqual(xs.subscriptions, [Subscription(201, 301)])
    }

    func testError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createHotObservable([.error(300, TimeOpsError())])
        let res = scheduler.start { xs.subscribe(on: scheduler) }
        XCTAssertEqual(res.events, [.error(300, TimeOpsError())])
        XCTAssertEqual(xs.subscriptions, [Subscription(201, 301)])
    }

    func testDispose() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2)])
        let res = scheduler.start { xs.subscribe(on: scheduler) }
        XCTAssertEqual(res.events, [.next(210, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(201, 1001)])
    }

    func testDisposeBeforeTheScheduledSubscriptionNeverSubscribes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2)])
        var subscription: Disposable?
        scheduler.scheduleAt(200) {
            subscription = xs.subscribe(on: scheduler).subscribe()
            subscription?.dispose()
        }
        scheduler.start()
        XCTAssertEqual(xs.subscriptions, [])
    }

    // MARK: Real queues

    func testSubscribingAndDisposingHappenOnTheQueueButEventsDoNotMove() {
        let key = DispatchSpecificKey<String>()
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "subscribe-on", serialQueueConfiguration: { queue in
            queue.setSpecific(key: key, value: "subscribe-on")
        })
        let record = TimeOpsSubscribeOnRecord()
        let subscribed = expectation(description: "subscribed")
        let disposed = expectation(description: "disposed")
        let source = Observable<Int>.create { observer in
            record.set(subscribeQueue: DispatchQueue.getSpecific(key: key), observer: observer)
            subscribed.fulfill()
            return Disposables.create {
                record.set(disposeQueue: DispatchQueue.getSpecific(key: key))
                disposed.fulfill()
            }
        }

        let subscription = source.subscribe(on: scheduler).subscribe(onNext: { value in
            record.received(value, queue: DispatchQueue.getSpecific(key: key), onMain: Thread.isMainThread)
        })
        wait(for: [subscribed], timeout: 10)

        // Emit from the test's (main) thread: the element arrives right here, not on the
        // scheduler's queue.
        record.observer?.onNext(1)
        XCTAssertEqual(record.elements, [1])
        XCTAssertEqual(record.elementQueues, [nil])
        XCTAssertEqual(record.elementsOnMain, [true])

        subscription.dispose()
        wait(for: [disposed], timeout: 10)
        XCTAssertEqual(record.subscribeQueue, "subscribe-on")
        XCTAssertEqual(record.disposeQueue, "subscribe-on")
    }
}

private final class TimeOpsSubscribeOnRecord: @unchecked Sendable {
    private let lock = NSLock()
    private var _subscribeQueue: String?
    private var _disposeQueue: String?
    private var _observer: AnyObserver<Int>?
    private var _elements: [Int] = []
    private var _elementQueues: [String?] = []
    private var _elementsOnMain: [Bool] = []

    private func locked<T>(_ body: () -> T) -> T { lock.lock(); defer { lock.unlock() }; return body() }

    func set(subscribeQueue: String?, observer: AnyObserver<Int>) {
        locked { _subscribeQueue = subscribeQueue; _observer = observer }
    }
    func set(disposeQueue: String?) { locked { _disposeQueue = disposeQueue } }
    func received(_ value: Int, queue: String?, onMain: Bool) {
        locked { _elements.append(value); _elementQueues.append(queue); _elementsOnMain.append(onMain) }
    }

    var subscribeQueue: String? { locked { _subscribeQueue } }
    var disposeQueue: String? { locked { _disposeQueue } }
    var observer: AnyObserver<Int>? { locked { _observer } }
    var elements: [Int] { locked { _elements } }
    var elementQueues: [String?] { locked { _elementQueues } }
    var elementsOnMain: [Bool] { locked { _elementsOnMain } }
}

private final class LoopTestBox<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// A source that is not a producer: it does not dispose itself when it terminates.
private struct CompletingAtOnce: ObservableType {
    typealias Element = Int
    let disposals: LoopTestBox<Int>

    func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Int {
        observer.on(.next(1))
        observer.on(.completed)
        return Disposables.create { disposals.value += 1 }
    }
}

/// `subscribe(on: ConcurrentMainScheduler.instance)` on the loop thread (the control
/// traits' case) subscribes at once and still disposes on the loop.
final class ConcurrentMainSubscribeOnTests: XCTestCase {
    func testOnTheLoopItSubscribesAtOnceAndADisposeFromAnotherThreadRunsOnTheLoop() {
        let subject = PublishSubject<Int>()
        let subscribedOnLoop = LoopTestBox(false)
        let disposedOnLoop = LoopTestBox(false)
        let disposed = expectation(description: "disposed")
        let source = Observable<Int>.create { observer in
            subscribedOnLoop.value = MainScheduler.isMainThread
            let inner = subject.subscribe(observer)
            return Disposables.create {
                disposedOnLoop.value = MainScheduler.isMainThread
                inner.dispose()
                disposed.fulfill()
            }
        }
        let values = LoopTestBox<[Int]>([])
        let subscription = source.subscribe(on: ConcurrentMainScheduler.instance)
            .subscribe(onNext: { values.value.append($0) })
        XCTAssertTrue(subscribedOnLoop.value, "subscribed synchronously")
        subject.onNext(1)

        let unchecked = LoopTestBox(subscription)
        let returned = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            unchecked.value.dispose()
            returned.signal()
        }
        returned.wait()
        subject.onNext(2)  // disposed, though the source's disposal is still on its way
        wait(for: [disposed], timeout: 5)
        XCTAssertTrue(disposedOnLoop.value, "the source is disposed on the loop")
        XCTAssertEqual(values.value, [1])
        XCTAssertFalse(subject.hasObservers)
    }

    func testASourceThatTerminatesWhileSubscribingIsDisposedOnce() {
        let disposals = LoopTestBox(0)
        var events: [String] = []
        let subscription = CompletingAtOnce(disposals: disposals).subscribe(on: ConcurrentMainScheduler.instance)
            .subscribe(onNext: { events.append("next \($0)") }, onCompleted: { events.append("completed") },
                       onDisposed: { events.append("disposed") })
        XCTAssertEqual(events, ["next 1", "completed", "disposed"])
        XCTAssertEqual(disposals.value, 1)
        subscription.dispose()
        XCTAssertEqual(disposals.value, 1)
    }
}
