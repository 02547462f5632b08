import Foundation
import RxCore
import RxTesting
import XCTest

/// `Infallible.values`.
final class InfallibleConcurrencyTests: XCTestCase {
    func testValuesYieldsEveryElementThenFinishes() async {
        var received: [Int] = []
        for await value in Infallible.of(1, 2, 3).values {
            received.append(value)
        }
        XCTAssertEqual(received, [1, 2, 3])
    }

    func testCancellingTheTaskDisposesTheSubscription() async {
        let subscribed = expectation(description: "subscribed")
        let disposed = expectation(description: "disposed")
        let task = Task {
            let source = Infallible<Int>.never().do(onSubscribed: { subscribed.fulfill() }, onDispose: { disposed.fulfill() })
            var count = 0
            for await _ in source.values { count += 1 }
            return count
        }
        await fulfillment(of: [subscribed], timeout: 5)
        task.cancel()
        await fulfillment(of: [disposed], timeout: 5)
        let count = await task.value
        XCTAssertEqual(count, 0)
    }

    func testDisposingFromElsewhereFinishesTheStream() async {
        let subject = PublishSubject<Int>()
        let stream = subject.asInfallible(onErrorJustReturn: 0).take(1).values
        subject.onNext(5)
        var received: [Int] = []
        for await value in stream { received.append(value) }
        XCTAssertEqual(received, [5])
        XCTAssertFalse(subject.hasObservers)
    }
}

/// `Driver.values` / `Signal.values`: non-throwing, like `Infallible.values`.
final class SharedSequenceConcurrencyTests: XCTestCase {
    func testDriverValuesYieldsEveryElementThenFinishes() async {
        let scheduler = TestScheduler(initialClock: 0)
        var stream: AsyncStream<Int>?
        SharingScheduler.mock(scheduler: scheduler) {
            stream = Observable.of(1, 2).asDriver(onErrorJustReturn: 0).values
        }
        scheduler.start()
        var received: [Int] = []
        for await value in stream! { received.append(value) }
        XCTAssertEqual(received, [1, 2])
    }
}
