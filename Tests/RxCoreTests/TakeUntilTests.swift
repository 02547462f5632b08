import Foundation
import RxCore
import RxTesting
import XCTest

/// `take(until: other)`.
final class TakeUntilTests: XCTestCase {
    func testOthersFirstElementCompletesAndDisposesBoth() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .next(230, 4), .completed(250)])
        let ys = scheduler.createHotObservable([.next(150, "a"), .next(225, "b"), .next(235, "c")])
        let res = scheduler.start { xs.take(until: ys) }
        XCTAssertEqual(res.events, [.next(210, 2), .next(220, 3), .completed(225)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 225)])
    }

    func testOthersErrorIsForwarded() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(230, 4), .completed(250)])
        let ys = scheduler.createHotObservable([.error(225, testError)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.take(until: ys) }
        XCTAssertEqual(res.events, [.next(210, 2), .error(225, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 225)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 225)])
    }

    func testOthersCompletedIsIgnored() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(230, 4), .completed(250)])
        let ys = scheduler.createHotObservable([.completed(225)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.take(until: ys) }
        XCTAssertEqual(res.events, [.next(210, 2), .next(230, 4), .completed(250)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 225)])
    }

    func testSourceTerminationDisposesOther() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(230, testError)])
        let ys = scheduler.createHotObservable([.next(300, 1)])
        let res = scheduler.start { xs.take(until: ys) }
        XCTAssertEqual(res.events, [.next(210, 2), .error(230, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 230)])
    }

    func testOtherIsSubscribedFirst() {
        var log: [String] = []
        let source = Observable<Int>.never().do(onSubscribe: { log.append("source") })
        let other = Observable<Int>.never().do(onSubscribe: { log.append("other") })
        _ = source.take(until: other).subscribe().dispose()
        XCTAssertEqual(log, ["other", "source"])
    }

    func testOtherFiringDuringSubscribeCompletesAtOnce() {
        var events: [String] = []
        _ = Observable.of(1, 2, 3).take(until: Observable.just(())).subscribe { events.append($0.debugDescription) }
        XCTAssertEqual(events, ["completed"])
    }

    func testDisposeDisposesBoth() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .next(230, 4)])
        let ys = scheduler.createHotObservable([.next(300, 1)])
        let res = scheduler.start(disposed: 220) { xs.take(until: ys) }
        XCTAssertEqual(res.events, [.next(210, 2)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
        XCTAssertEqual(ys.subscriptions, [Subscription(200, 220)])
    }
}

/// `take(until:)` with the two sources on different threads (run under TSan by `make test-tsan`).
final class TakeUntilConcurrencyTests: XCTestCase {
    func testConcurrentSourceAndOtherKeepTheGrammar() {
        for _ in 0..<50 {
            var sourceObserver: AnyObserver<Int>?
            var otherObserver: AnyObserver<Void>?
            let source = Observable<Int>.create { sourceObserver = $0; return Disposables.create() }
            let other = Observable<Void>.create { otherObserver = $0; return Disposables.create() }
            let recorder = ConcurrentRecorder()
            let subscription = source.take(until: other).subscribe(
                onNext: { _ in recorder.record("next") },
                onError: { _ in recorder.record("error") },
                onCompleted: { recorder.record("completed") }
            )
            let (emit, stop) = (ThreadHandOff(sourceObserver!), ThreadHandOff(otherObserver!))
            let group = DispatchGroup()
            DispatchQueue.global().async(group: group) {
                for value in 0..<200 { emit.value.onNext(value) }
            }
            DispatchQueue.global().async(group: group) {
                stop.value.onNext(())
            }
            group.wait()
            subscription.dispose()
            let events = recorder.events
            XCTAssertEqual(events.last, "completed")
            XCTAssertEqual(events.filter { $0 == "completed" }.count, 1)
            XCTAssertFalse(events.contains("error"))
        }
    }
}

/// A thread-safe event list for concurrency tests.
private final class ConcurrentRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []

    func record(_ entry: String) {
        lock.lock()
        entries.append(entry)
        lock.unlock()
    }

    var events: [String] {
        lock.lock()
        defer { lock.unlock() }
        return entries
    }
}

/// Hands a non-Sendable value to another thread in a test that synchronises by hand.
private struct ThreadHandOff<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
