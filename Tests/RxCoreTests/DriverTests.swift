import Foundation
import RxCore
import RxTesting
import XCTest

final class DriverTests: XCTestCase {
    struct Failure: Error {}

    func testErrorBecomesJustReturnThenCompleted() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let xs = scheduler.createHotObservable([.next(210, 1), .error(230, Failure())])
            let res = scheduler.start { xs.asDriver(onErrorJustReturn: -1) }
            XCTAssertEqual(res.events, [.next(211, 1), .next(231, -1), .completed(231)])
            // `asObservable()` wraps the test observable in `create`, whose sink disposes
            // upstream as the error passes (230), before delivery on the scheduler.
            XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
        }
    }

    func testErrorDrivesWithAnotherDriver() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let xs = scheduler.createHotObservable([.next(210, 1), .error(230, Failure())])
            let res = scheduler.start { xs.asDriver(onErrorDriveWith: Driver.just(9)) }
            // `Driver.just` completes one scheduler step after its element, as in RxSwift.
            XCTAssertEqual(res.events, [.next(211, 1), .next(232, 9), .completed(233)])
        }
    }

    func testErrorRecoverSeesTheError() {
        let scheduler = TestScheduler(initialClock: 0)
        var seen: [String] = []
        SharingScheduler.mock(scheduler: scheduler) {
            let xs = scheduler.createHotObservable([.error(230, Failure())] as [Recorded<Event<Int>>])
            let res = scheduler.start {
                xs.asDriver(onErrorRecover: { error in
                    seen.append("\(error)")
                    return Driver.empty()
                })
            }
            XCTAssertEqual(res.events, [.completed(232)])
        }
        XCTAssertEqual(seen, ["Failure()"])
    }

    func testSharedWithReplayOneWhileConnected() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            var subscriptions = 0
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(300, 3)])
            let driver = Observable<Int>.deferred {
                subscriptions += 1
                return xs.asObservable()
            }
            .asDriver(onErrorJustReturn: 0)
            let first = scheduler.createObserver(Int.self)
            let second = scheduler.createObserver(Int.self)
            let third = scheduler.createObserver(Int.self)
            var d1: Disposable?
            var d2: Disposable?
            scheduler.scheduleAt(200) { d1 = driver.drive(first) }
            scheduler.scheduleAt(250) { d2 = driver.drive(second) }
            scheduler.scheduleAt(260) { d1?.dispose(); d2?.dispose() }
            scheduler.scheduleAt(270) { _ = driver.drive(third) }
            scheduler.start()

            XCTAssertEqual(first.events, [.next(211, 1), .next(221, 2)])
            XCTAssertEqual(second.events, [.next(250, 2)], "replays the latest element synchronously")
            XCTAssertEqual(third.events, [.next(301, 3)], "after the last dispose the source is subscribed afresh")
            XCTAssertEqual(subscriptions, 2)
        }
    }

    func testDriveClosuresAndWeakObject() {
        final class Owner { var values: [Int] = [] }
        var owner: Owner? = Owner()
        var completed = 0
        var disposed = 0
        _ = Driver.of(1, 2).drive(with: owner!, onNext: { owner, value in owner.values.append(value) })
        // MainScheduler runs the first element at once; the recursive rest goes through
        // the main queue, as in RxSwift.
        XCTAssertEqual(owner?.values, [1])
        RunLoop.main.run(until: Date().addingTimeInterval(0.05))
        _ = Driver.just(5).drive(onNext: { owner?.values.append($0) }, onCompleted: { completed += 1 }, onDisposed: { disposed += 1 })
        XCTAssertEqual(owner?.values, [1, 2, 5])
        // The completion is the scheduler's next step (the main queue), as in RxSwift.
        XCTAssertEqual(completed, 0)
        RunLoop.main.run(until: Date().addingTimeInterval(0.05))
        XCTAssertEqual(completed, 1)
        XCTAssertEqual(disposed, 1)
        owner = nil
    }

    func testDriveToOptionalObserver() {
        let scheduler = TestScheduler(initialClock: 0)
        let observer = scheduler.createObserver(Int?.self)
        _ = Driver.just(3).drive(observer)
        XCTAssertEqual(observer.events, [.next(0, 3)])
        RunLoop.main.run(until: Date().addingTimeInterval(0.05))
        XCTAssertEqual(observer.events, [.next(0, 3), .completed(0)])
    }

    func testMockRestoresTheSchedulerFactory() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            XCTAssertTrue(SharingScheduler.make() as AnyObject === scheduler)
        }
        XCTAssertTrue(SharingScheduler.make() is MainScheduler)
    }
}

final class SignalTests: XCTestCase {
    func testNoReplayForLateSubscribers() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let xs = scheduler.createHotObservable([.next(210, 1), .next(300, 2)])
            let signal = xs.asSignal(onErrorJustReturn: 0)
            let first = scheduler.createObserver(Int.self)
            let late = scheduler.createObserver(Int.self)
            scheduler.scheduleAt(200) { _ = signal.emit(to: first) }
            scheduler.scheduleAt(250) { _ = signal.emit(to: late) }
            scheduler.start()
            XCTAssertEqual(first.events, [.next(211, 1), .next(301, 2)])
            XCTAssertEqual(late.events, [.next(301, 2)], "a Signal does not replay")
            XCTAssertEqual(xs.subscriptions, [Subscription(200)])
        }
    }

    func testEmitClosuresAndErrorRecovery() {
        let scheduler = TestScheduler(initialClock: 0)
        var values: [String] = []
        SharingScheduler.mock(scheduler: scheduler) {
            let xs = scheduler.createHotObservable([.next(210, "a"), .error(220, RxError.unknown)])
            scheduler.scheduleAt(200) {
                _ = xs.asSignal(onErrorSignalWith: Signal.just("z"))
                    .map { $0.uppercased() }
                    .emit(onNext: { values.append($0) }, onCompleted: { values.append("done") })
            }
            scheduler.start()
        }
        XCTAssertEqual(values, ["A", "Z", "done"])
    }

    func testDriverAsSignalLosesReplay() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let xs = scheduler.createHotObservable([.next(210, 1)])
            let signal = xs.asDriver(onErrorJustReturn: 0).asSignal()
            let first = scheduler.createObserver(Int.self)
            let late = scheduler.createObserver(Int.self)
            scheduler.scheduleAt(200) { _ = signal.emit(to: first) }
            scheduler.scheduleAt(250) { _ = signal.emit(to: late) }
            scheduler.start()
            XCTAssertEqual(first.events, [.next(211, 1)])
            XCTAssertEqual(late.events, [])
        }
    }
}

final class SharedSequenceRelayTests: XCTestCase {
    func testDriveAndEmitIntoRelays() {
        let behavior = BehaviorRelay(value: 0)
        let optional = BehaviorRelay<Int?>(value: nil)
        _ = Driver.just(4).drive(behavior, behavior)
        _ = Driver.just(5).drive(optional)
        XCTAssertEqual(behavior.value, 4)
        XCTAssertEqual(optional.value, 5)

        let publish = PublishRelay<String>()
        var seen: [String] = []
        _ = publish.subscribe(onNext: { seen.append($0) })
        _ = Signal.just("tap").emit(to: publish)
        XCTAssertEqual(seen, ["tap"])
    }
}
