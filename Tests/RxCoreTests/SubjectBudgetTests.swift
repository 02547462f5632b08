import Foundation
@testable import RxCore
import XCTest

/// Per-element cost of subjects, relays and sharing: the public `onNext` a user calls,
/// through the operators, to a counting node (so the subscriber's own closure, and its
/// captured-variable exclusivity checks, are not measured).
///
/// Measure with callgrind at two sizes and divide the difference (there are no hardware
/// counters in the sandbox):
///
///     swift build -c release -Xswiftc -enable-testing --build-tests
///     for n in 10000 20000; do BINDERY_BENCH_N=$n valgrind --tool=callgrind \
///         --callgrind-out-file=/tmp/cg.$n .build/release/BinderyPackageTests.xctest \
///         RxCoreTests.SubjectBudgetTests/testPublishSubjectMapMap; done
///     # (Ir(20000) - Ir(10000)) / 10000 = instructions per onNext
///
/// Measured (Swift 6.3.1, release with -enable-testing, instructions per onNext):
/// PublishSubject -> map -> map -> node 310 (budget for map -> filter: 1,000);
/// BehaviorSubject with 10 subscribers 430 (budget 5,000); share(replay: 1) with two map
/// subscribers 647; bind(to: BehaviorRelay) -> node 478; ReplaySubject(bufferSize: 3) ->
/// node 472. In a normal test run N is small and the tests only check the counts.
final class SubjectBudgetTests: XCTestCase {
    private var iterations: Int {
        ProcessInfo.processInfo.environment["BINDERY_BENCH_N"].flatMap(Int.init) ?? 1_000
    }

    func testPublishSubjectMapMap() {
        let subject = PublishSubject<Int>()
        let counter = SubjectBudgetCountingNode<Int>()
        let subscription = subject.map { $0 &+ 1 }.map { $0 &* 2 }.subscribe(node: counter)
        let n = iterations
        for i in 0..<n {
            subject.onNext(i)
        }
        subscription.dispose()
        XCTAssertEqual(counter.count, n)
    }

    func testBehaviorSubjectTenSubscribers() {
        let subject = BehaviorSubject(value: 0)
        let counter = SubjectBudgetCountingNode<Int>()
        let subscriptions = (0..<10).map { _ in subject.subscribe(node: counter) }
        let n = iterations
        for i in 0..<n {
            subject.onNext(i)
        }
        subscriptions.forEach { $0.dispose() }
        XCTAssertEqual(counter.count, 10 * (n + 1))
    }

    func testShareReplay1TwoMapSubscribers() {
        let subject = PublishSubject<Int>()
        let shared = subject.share(replay: 1)
        let counter = SubjectBudgetCountingNode<Int>()
        let subscriptions = (0..<2).map { _ in shared.map { $0 &+ 1 }.subscribe(node: counter) }
        let n = iterations
        for i in 0..<n {
            subject.onNext(i)
        }
        subscriptions.forEach { $0.dispose() }
        XCTAssertEqual(counter.count, 2 * n)
        XCTAssertFalse(subject.hasObservers)
    }

    func testBindToBehaviorRelay() {
        let subject = PublishSubject<Int>()
        let relay = BehaviorRelay(value: -1)
        let counter = SubjectBudgetCountingNode<Int>()
        let binding = subject.bind(to: relay)
        let subscription = relay.subscribe(node: counter)
        let n = iterations
        for i in 0..<n {
            subject.onNext(i)
        }
        binding.dispose()
        subscription.dispose()
        XCTAssertEqual(counter.count, n + 1)
        XCTAssertEqual(relay.value, n - 1)
    }

    func testReplaySubjectBufferOfThree() {
        let subject = ReplaySubject<Int>.create(bufferSize: 3)
        let counter = SubjectBudgetCountingNode<Int>()
        let subscription = subject.subscribe(node: counter)
        let n = iterations
        for i in 0..<n {
            subject.onNext(i)
        }
        subscription.dispose()
        XCTAssertEqual(counter.count, n)
    }
}

/// Counts elements; the cheapest possible end of a chain. The count lives behind a
/// pointer: a stored `var` would pay a dynamic exclusivity check per element.
final class SubjectBudgetCountingNode<Element>: ObserverNode<Element> {
    private let counter: UnsafeMutablePointer<Int> = {
        let pointer = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        pointer.initialize(to: 0)
        return pointer
    }()

    deinit {
        counter.deallocate()
    }

    var count: Int { counter.pointee }
    override func onNext(_ element: Element) { counter.pointee &+= 1 }
    override func onError(_ error: Swift.Error) {}
    override func onCompleted() {}
}
