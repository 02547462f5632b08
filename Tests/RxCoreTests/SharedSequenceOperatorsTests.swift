import Foundation
import RxCore
import RxTesting
import XCTest

/// The RxCocoa operators and arities of Driver and Signal.
final class SharedSequenceOperatorsTests: XCTestCase {
    /// A driver of a hot observable's elements (each one tick later, from `observe(on:)`).
    private func driver(_ scheduler: TestScheduler, _ events: [Recorded<Event<Int>>]) -> Driver<Int> {
        scheduler.createHotObservable(events).asDriver(onErrorJustReturn: -1)
    }

    func testCombineLatestAndZipOfEightDrivers() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let d = (1...8).map { driver(scheduler, [.next(200 + $0 * 10, $0), .completed(300)]) }
            let combined = scheduler.start {
                Driver.combineLatest(d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7]) { $0 + $1 + $2 + $3 + $4 + $5 + $6 + $7 }
            }
            XCTAssertEqual(combined.events, [.next(281, 36), .completed(301)])
        }
        let scheduler2 = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler2) {
            let d = (1...8).map { driver(scheduler2, [.next(200 + $0 * 10, $0), .next(300, $0 * 10), .completed(400)]) }
            let zipped = scheduler2.start {
                Driver.zip(d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7]).map { "\($0.0)\($0.7)" }
            }
            XCTAssertEqual(zipped.events, [.next(281, "18"), .next(301, "1080"), .completed(401)])
        }
    }

    func testTupleFormsOfFourSources() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let d = (1...4).map { driver(scheduler, [.next(210, $0), .completed(300)]) }
            let res = scheduler.start { Driver.combineLatest(d[0], d[1], d[2], d[3]).map { $0.0 + $0.1 + $0.2 + $0.3 } }
            XCTAssertEqual(res.events, [.next(211, 10), .completed(301)])
        }
    }

    func testCollectionFormsWithResultSelector() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let a = driver(scheduler, [.next(210, 1), .next(230, 3), .completed(300)])
            let b = driver(scheduler, [.next(220, 2), .completed(300)])
            let res = scheduler.start { Driver.combineLatest([a, b]) { $0.reduce(0, +) } }
            XCTAssertEqual(res.events, [.next(221, 3), .next(231, 5), .completed(301)])
        }
        let scheduler2 = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler2) {
            let a = driver(scheduler2, [.next(210, 1), .next(230, 3), .completed(300)])
            let b = driver(scheduler2, [.next(220, 2), .completed(300)])
            let res = scheduler2.start { Driver.zip([a, b]) { $0.map(String.init).joined() } }
            XCTAssertEqual(res.events, [.next(221, "12"), .completed(301)])
        }
    }

    func testSignalWithLatestFromDriver() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let taps = scheduler.createHotObservable([.next(215, ()), .next(235, ())]).asSignal(onErrorJustReturn: ())
            let text = driver(scheduler, [.next(210, 1), .next(220, 2)])
            let res = scheduler.start { taps.withLatestFrom(text) }
            XCTAssertEqual(res.events, [.next(216, 1), .next(236, 2)])
        }
        let scheduler2 = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler2) {
            let taps = scheduler2.createHotObservable([.next(215, ()), .next(235, ())]).asSignal(onErrorJustReturn: ())
            let text = driver(scheduler2, [.next(210, 1), .next(220, 2)])
            let res = scheduler2.start { taps.withLatestFrom(text) { _, value in value * 10 } }
            XCTAssertEqual(res.events, [.next(216, 10), .next(236, 20)])
        }
    }

    func testRelayConversions() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let relay = BehaviorRelay(value: 1)
            scheduler.scheduleAt(210) { relay.accept(2) }
            let res = scheduler.start { relay.asDriver() }
            XCTAssertEqual(res.events, [.next(201, 1), .next(211, 2)])
        }
        let scheduler2 = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler2) {
            let relay = PublishRelay<Int>()
            scheduler2.scheduleAt(190) { relay.accept(0) }
            scheduler2.scheduleAt(210) { relay.accept(2) }
            let res = scheduler2.start { relay.asSignal() }
            XCTAssertEqual(res.events, [.next(211, 2)])
        }
    }

    func testSwitchLatestMergeAndConcat() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let a = driver(scheduler, [.next(210, 1), .next(230, 3)])
            let b = driver(scheduler, [.next(220, 2), .next(240, 4)])
            let outer = scheduler.createHotObservable([.next(205, a), .next(225, b)]).asDriver(onErrorDriveWith: .empty())
            XCTAssertEqual(scheduler.start { outer.switchLatest() }.events, [.next(211, 1), .next(241, 4)])
        }
        let scheduler2 = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler2) {
            let a = driver(scheduler2, [.next(210, 1), .next(230, 3)])
            let b = driver(scheduler2, [.next(220, 2), .next(240, 4)])
            let outer = scheduler2.createHotObservable([.next(205, a), .next(215, b)]).asDriver(onErrorDriveWith: .empty())
            XCTAssertEqual(scheduler2.start { outer.merge() }.events, [.next(211, 1), .next(221, 2), .next(231, 3), .next(241, 4)])
        }
        let scheduler3 = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler3) {
            let a = driver(scheduler3, [.next(210, 1), .completed(220)])
            let b = driver(scheduler3, [.next(215, 2), .next(230, 3)])
            XCTAssertEqual(scheduler3.start { Driver.concat([a, b]) }.events, [.next(211, 1), .next(231, 3)])
        }
    }

    func testDistinctScanIntoAndWithUnretained() {
        struct Point { var x: Int; var y: Int }
        final class Owner {}
        let owner = Owner()
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let points = scheduler.createHotObservable([.next(210, Point(x: 1, y: 1)), .next(220, Point(x: 1, y: 2)), .next(230, Point(x: 2, y: 2))])
                .asDriver(onErrorDriveWith: .empty())
            XCTAssertEqual(scheduler.start { points.distinctUntilChanged(at: \.x).map(\.x) }.events, [.next(211, 1), .next(231, 2)])
        }
        let scheduler2 = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler2) {
            let d = driver(scheduler2, [.next(210, 1), .next(220, 2)])
            XCTAssertEqual(scheduler2.start { d.scan(into: [Int]()) { $0.append($1) }.map { $0.count } }.events, [.next(211, 1), .next(221, 2)])
        }
        let scheduler3 = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler3) {
            let d = driver(scheduler3, [.next(210, 1)])
            XCTAssertEqual(scheduler3.start { d.withUnretained(owner).map { $1 } }.events, [.next(211, 1)])
        }
        let scheduler4 = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler4) {
            let d = driver(scheduler4, [.next(210, 1), .next(220, 1), .next(230, 2)])
            XCTAssertEqual(scheduler4.start { d.debug("shared").distinctUntilChanged({ $0 }, comparer: ==) }.events, [.next(211, 1), .next(231, 2)])
        }
        withExtendedLifetime(owner) {}
    }

    func testAsSharedSequenceWithAStrategy() {
        struct Failure: Error {}
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let xs = scheduler.createHotObservable([.next(210, 1), .error(220, Failure())])
            let res = scheduler.start { xs.asSharedSequence(sharingStrategy: SignalSharingStrategy.self, onErrorJustReturn: 9) }
            XCTAssertEqual(res.events, [.next(211, 1), .next(221, 9), .completed(221)])
        }
    }
}
