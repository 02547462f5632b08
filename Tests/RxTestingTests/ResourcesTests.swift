import Foundation
import RxCore
import RxTesting
import XCTest

/// `Resources.total` (RxCore built with `-DTRACE_RESOURCES`, `make test-trace-resources`):
/// it counts live Rx objects, and common operators give every one back once their
/// subscription ends. Without the flag every test skips.
final class ResourcesTests: XCTestCase {
    #if TRACE_RESOURCES
    struct Failure: Error {}

    private var startTotal: Int32 = 0

    override func setUpWithError() throws {
        startTotal = Resources.total
    }

    override func tearDown() {
        // As RxSwift's own tests do after every test.
        XCTAssertEqual(Resources.total, startTotal, "Rx objects outlived the test")
        super.tearDown()
    }

    /// Runs `body` in its own scope, then asserts every Rx object it made is gone.
    private func assertReturnsToBaseline(file: StaticString = #filePath, line: UInt = #line, _ body: () -> Void) {
        let before = Resources.total
        body()
        XCTAssertEqual(Resources.total, before, "Rx objects leaked", file: file, line: line)
    }

    func testCountsLiveObjectsAndIncrementDecrementAreBalanced() {
        let before = Resources.total
        var source: Observable<Int>? = Observable.just(1)
        XCTAssertGreaterThan(Resources.total, before)
        source = nil
        XCTAssertNil(source)
        XCTAssertEqual(Resources.total, before)
        XCTAssertEqual(Resources.incrementTotal(), before + 1)
        XCTAssertEqual(Resources.total, before + 1)
        XCTAssertEqual(Resources.decrementTotal(), before)
    }

    func testARetainCycleShowsAsALeak() {
        let before = Resources.total
        weak var weakSubject: PublishSubject<Int>?
        do {
            let subject = PublishSubject<Int>()
            weakSubject = subject
            // The subscription holds the subject and the subject holds the subscription;
            // the disposable is dropped without being disposed.
            _ = subject.subscribe(onNext: { [subject] _ in _ = subject })
        }
        XCTAssertNotNil(weakSubject)
        XCTAssertGreaterThan(Resources.total, before, "the cycle keeps the subject and its observer alive")
        weakSubject?.dispose() // drops its observers: the cycle is broken
        XCTAssertNil(weakSubject)
        XCTAssertEqual(Resources.total, before)
    }

    func testMapFilterUnderTestSchedulerGiveEverythingBack() {
        assertReturnsToBaseline {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
            let res = scheduler.start { xs.map { $0 * 2 }.filter { $0 > 2 } }
            XCTAssertEqual(res.events, [.next(220, 4), .next(230, 6), .completed(300)])
        }
        assertReturnsToBaseline {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
            let res = scheduler.start(disposed: 215) { xs.map { $0 + 1 } }
            XCTAssertEqual(res.events, [.next(210, 2)])
        }
    }

    func testFlatMapAndFlatMapLatestGiveEverythingBack() {
        assertReturnsToBaseline {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(400)])
            let res = scheduler.start {
                xs.flatMap { value in Observable.of(value, value * 10) }
            }
            XCTAssertEqual(res.events, [.next(210, 1), .next(210, 10), .next(220, 2), .next(220, 20), .completed(400)])
        }
        assertReturnsToBaseline {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
            let inner = scheduler.createColdObservable([.next(5, 0), .next(50, 0)])
            let res = scheduler.start(disposed: 300) { xs.flatMapLatest { value in inner.map { _ in value } } }
            XCTAssertEqual(res.events, [.next(215, 1), .next(225, 2), .next(270, 2)])
        }
    }

    func testShareAndSubjectsGiveEverythingBack() {
        assertReturnsToBaseline {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
            let shared = xs.map { $0 * 3 }.share(replay: 1)
            let first = scheduler.createObserver(Int.self)
            let second = scheduler.createObserver(Int.self)
            let bag = DisposeBag()
            scheduler.scheduleAt(200) { shared.subscribe(first).disposed(by: bag) }
            scheduler.scheduleAt(215) { shared.subscribe(second).disposed(by: bag) }
            scheduler.start()
            XCTAssertEqual(second.events, [.next(215, 3), .next(220, 6), .completed(300)])
        }
        assertReturnsToBaseline {
            let publish = PublishSubject<Int>()
            let behavior = BehaviorSubject(value: 0)
            let replay = ReplaySubject<Int>.create(bufferSize: 2)
            var received: [Int] = []
            let subscriptions = [publish, behavior, replay].map { $0.subscribe(onNext: { received.append($0) }) }
            publish.onNext(1)
            behavior.onNext(2)
            replay.onNext(3)
            subscriptions.forEach { $0.dispose() }
            XCTAssertEqual(received, [0, 1, 2, 3])
        }
        assertReturnsToBaseline {
            let relay = BehaviorRelay(value: 1)
            var received: [Int] = []
            let subscription = relay.subscribe(onNext: { received.append($0) })
            relay.accept(2)
            subscription.dispose()
            XCTAssertEqual(received, [1, 2])
        }
    }

    func testTimersUnderTestSchedulerGiveEverythingBack() {
        assertReturnsToBaseline {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start(disposed: 235) { Observable<Int>.interval(.seconds(10), scheduler: scheduler) }
            XCTAssertEqual(res.events, [.next(210, 0), .next(220, 1), .next(230, 2)])
        }
        assertReturnsToBaseline {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .completed(300)])
            let res = scheduler.start {
                xs.debounce(.seconds(10), scheduler: scheduler).delay(.seconds(5), scheduler: scheduler)
            }
            XCTAssertEqual(res.events, [.next(230, 2), .completed(305)])
        }
    }

    func testCombiningAndTimeOperatorsGiveEverythingBack() {
        typealias Make = (TestScheduler, TestableObservable<Int>, TestableObservable<Int>) -> Observable<Int>
        let operators: [(String, Make)] = [
            ("concat", { _, xs, ys in xs.concat(ys) }),
            ("merge", { _, xs, ys in Observable.merge(xs.asObservable(), ys.asObservable()) }),
            ("combineLatest", { _, xs, ys in Observable.combineLatest(xs, ys) { $0 + $1 } }),
            ("zip", { _, xs, ys in Observable.zip(xs, ys) { $0 + $1 } }),
            ("withLatestFrom", { _, xs, ys in xs.withLatestFrom(ys) { $0 + $1 } }),
            ("take(until:)", { _, xs, ys in xs.take(until: ys) }),
            ("switchLatest", { _, xs, ys in xs.map { _ in ys.asObservable() }.switchLatest() }),
            ("catch", { _, xs, ys in xs.concat(Observable.error(Failure())).catch { _ in ys.asObservable() } }),
            ("retry", { _, xs, _ in xs.concat(Observable.error(Failure())).retry(2) }),
            ("scan+distinct", { _, xs, _ in xs.scan(0, accumulator: +).distinctUntilChanged().startWith(-1) }),
            ("throttle", { scheduler, xs, _ in xs.throttle(.seconds(15), scheduler: scheduler) }),
            ("timeout", { scheduler, xs, ys in xs.timeout(.seconds(5), other: ys, scheduler: scheduler) }),
            ("sample", { _, xs, ys in xs.sample(ys) }),
            ("buffer", { scheduler, xs, _ in xs.buffer(timeSpan: .seconds(20), count: 2, scheduler: scheduler).map(\.count) }),
            ("publish+refCount", { _, xs, _ in xs.publish().refCount() }),
            ("Driver", { _, xs, _ in xs.asDriver(onErrorJustReturn: 0).asObservable() }),
        ]
        for (name, make) in operators {
            for disposed in [1000, 225] {
                let before = Resources.total
                do {
                    let scheduler = TestScheduler(initialClock: 0)
                    let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
                    let ys = scheduler.createColdObservable([.next(5, 10), .next(15, 20), .completed(40)])
                    let res = scheduler.start(disposed: disposed) { make(scheduler, xs, ys) }
                    XCTAssertFalse(res.events.isEmpty, name)
                }
                XCTAssertEqual(Resources.total, before, "\(name) disposed at \(disposed) leaked")
            }
        }
    }

    func testDisposablesGiveEverythingBack() {
        assertReturnsToBaseline {
            let serial = SerialDisposable()
            serial.disposable = Disposables.create {}
            serial.disposable = Disposables.create(Disposables.create {}, Disposables.create {})
            let single = SingleAssignmentDisposable()
            single.setDisposable(Disposables.create {})
            let refCount = RefCountDisposable(disposable: Disposables.create {})
            let retained = refCount.retain()
            let bag = DisposeBag()
            serial.disposed(by: bag)
            single.disposed(by: bag)
            retained.dispose()
            refCount.dispose()
        }
    }
    func testSerialObserveOnIsCountedWhileAlive() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "resources-tests")
        let before = Resources.numberOfSerialDispatchQueueObservables
        var serial: Observable<Int>? = Observable.just(0).observe(on: scheduler)
        XCTAssertEqual(Resources.numberOfSerialDispatchQueueObservables, before + 1)
        var main: Observable<Int>? = Observable.just(0).observe(on: MainScheduler.instance)
        XCTAssertEqual(Resources.numberOfSerialDispatchQueueObservables, before + 2)
        let concurrent = Observable.just(0).observe(on: ConcurrentDispatchQueueScheduler(qos: .default))
        XCTAssertEqual(Resources.numberOfSerialDispatchQueueObservables, before + 2, "\(concurrent) takes the general path")
        serial = nil
        main = nil
        XCTAssertNil(serial ?? main)
        XCTAssertEqual(Resources.numberOfSerialDispatchQueueObservables, before)
    }
    #else
    func testNeedsTraceResources() throws {
        throw XCTSkip("Resources.total needs RxCore built with -DTRACE_RESOURCES (make test-trace-resources)")
    }
    #endif
}
