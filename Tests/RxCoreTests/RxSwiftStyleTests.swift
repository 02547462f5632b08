// Written exactly as an RxSwift + RxTest test would be; only the two import lines differ
// (`import RxSwift` → `import RxCore`, `import RxTest` → `import RxTesting`).
import RxCore
import RxTesting
import XCTest

final class RxSwiftStyleTests: XCTestCase {
    var disposeBag = DisposeBag()

    override func setUp() {
        super.setUp()
        disposeBag = DisposeBag()
    }

    func testMapFilter() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1),
            .next(210, 2),
            .next(220, 3),
            .next(230, 4),
            .next(240, 5),
            .completed(300),
        ])

        let res = scheduler.start {
            xs.map { $0 * 2 }.filter { $0 % 4 == 0 }
        }

        XCTAssertEqual(res.events, [
            .next(210, 4),
            .next(230, 8),
            .completed(300),
        ])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 300)])
    }

    func testCombineLatest() {
        let scheduler = TestScheduler(initialClock: 0)
        let e0 = scheduler.createHotObservable([.next(150, 1), .next(215, 2), .next(225, 4), .completed(230)])
        let e1 = scheduler.createHotObservable([.next(150, 1), .next(220, 3), .next(230, 5), .completed(240)])

        let res = scheduler.start {
            Observable.combineLatest(e0, e1) { $0 + $1 }
        }

        XCTAssertEqual(res.events, [
            .next(220, 2 + 3),
            .next(225, 4 + 3),
            .next(230, 4 + 5),
            .completed(240),
        ])
        XCTAssertEqual(e0.subscriptions, [Subscription(200, 230)])
        XCTAssertEqual(e1.subscriptions, [Subscription(200, 240)])
    }

    func testThrottle() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1),
            .next(250, 2),
            .next(310, 3),
            .next(350, 4),
            .next(410, 5),
            .next(450, 6),
            .completed(500),
        ])

        let res = scheduler.start {
            xs.throttle(.seconds(200), latest: false, scheduler: scheduler)
        }

        XCTAssertEqual(res.events, [
            .next(210, 1),
            .next(410, 5),
            .completed(500),
        ])
    }

    func testBehaviorSubject() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = BehaviorSubject(value: 0)
        let observer = scheduler.createObserver(Int.self)

        scheduler.scheduleAt(100) {
            subject.subscribe(observer).disposed(by: self.disposeBag)
        }
        scheduler.createColdObservable([.next(110, 1), .next(120, 2)])
            .bind(to: subject)
            .disposed(by: disposeBag)
        scheduler.start()

        XCTAssertEqual(observer.events, [
            .next(100, 0),
            .next(110, 1),
            .next(120, 2),
        ])
        XCTAssertEqual(try subject.value(), 2)
    }

    func testShareReplay() {
        let scheduler = TestScheduler(initialClock: 0)
        var subscriptions = 0
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3)])
        let shared = Observable<Int>.deferred {
            subscriptions += 1
            return xs.asObservable()
        }
        .share(replay: 1)

        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { shared.subscribe(first).disposed(by: self.disposeBag) }
        scheduler.scheduleAt(225) { shared.subscribe(second).disposed(by: self.disposeBag) }
        scheduler.start()

        XCTAssertEqual(subscriptions, 1)
        XCTAssertEqual(first.events, [.next(210, 1), .next(220, 2), .next(230, 3)])
        XCTAssertEqual(second.events, [.next(225, 2), .next(230, 3)])
    }

    func testDriverWithMockedScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let xs = scheduler.createHotObservable([.next(210, "a"), .error(220, RxError.unknown)])
            let observer = scheduler.createObserver(String.self)
            scheduler.scheduleAt(200) {
                xs.asDriver(onErrorJustReturn: "recovered")
                    .map { $0.uppercased() }
                    .drive(observer)
                    .disposed(by: self.disposeBag)
            }
            scheduler.start()
            XCTAssertEqual(observer.events, [
                .next(211, "A"),
                .next(221, "RECOVERED"),
                .completed(221),
            ])
        }
    }
}
