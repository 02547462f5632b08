import Foundation
@testable import RxCore
import XCTest

/// Drives the per-element paths the way a subject does (straight `ObserverNode.onNext`
/// calls, no `Event`), so an instruction count of a run measures the operator itself.
///
/// Measure the per-element cost with callgrind at two sizes and divide the difference
/// (there are no hardware counters in the sandbox):
///
///     swift build -c release -Xswiftc -enable-testing --build-tests
///     for n in 10000 20000; do BINDERY_BENCH_N=$n valgrind --tool=callgrind \
///         --callgrind-out-file=/tmp/cg.$n .build/release/BinderyPackageTests.xctest \
///         RxCoreTests.CombiningBudgetTests/testCombineLatestOfTwoNodeSources; done
///     # (Ir(20000) - Ir(10000)) / 20000 = instructions per onNext
///
/// Measured (Swift 6.3.1, release): combineLatest with a selector 498 per onNext (budget
/// 2,500), tuple form 774, merge 309, zip 858, withLatestFrom 295. In a normal test run N is
/// small and the tests only check the counts.
final class CombiningBudgetTests: XCTestCase {
    private var iterations: Int {
        ProcessInfo.processInfo.environment["BINDERY_BENCH_N"].flatMap(Int.init) ?? 1_000
    }

    func testCombineLatestOfTwoNodeSources() {
        let a = BudgetNodeSource<Int>()
        let b = BudgetNodeSource<Int>()
        let sink = BudgetCountingNode<Int>()
        let subscription = Observable.combineLatest(a, b) { $0 &+ $1 }.subscribe(node: sink)
        let n = iterations
        for i in 0..<n {
            a.push(i)
            b.push(i)
        }
        subscription.dispose()
        XCTAssertEqual(sink.count, 2 * n - 1)
    }

    func testCombineLatestTupleOfTwoNodeSources() {
        let a = BudgetNodeSource<Int>()
        let b = BudgetNodeSource<Int>()
        let sink = BudgetCountingNode<(Int, Int)>()
        let subscription = Observable.combineLatest(a, b).subscribe(node: sink)
        let n = iterations
        for i in 0..<n {
            a.push(i)
            b.push(i)
        }
        subscription.dispose()
        XCTAssertEqual(sink.count, 2 * n - 1)
    }

    func testMergeOfTwoNodeSources() {
        let a = BudgetNodeSource<Int>()
        let b = BudgetNodeSource<Int>()
        let sink = BudgetCountingNode<Int>()
        let subscription = Observable.merge(a.asObservable(), b.asObservable()).subscribe(node: sink)
        let n = iterations
        for i in 0..<n {
            a.push(i)
            b.push(i)
        }
        subscription.dispose()
        XCTAssertEqual(sink.count, 2 * n)
    }

    func testZipOfTwoNodeSources() {
        let a = BudgetNodeSource<Int>()
        let b = BudgetNodeSource<Int>()
        let sink = BudgetCountingNode<Int>()
        let subscription = Observable.zip(a, b) { $0 &+ $1 }.subscribe(node: sink)
        let n = iterations
        for i in 0..<n {
            a.push(i)
            b.push(i)
        }
        subscription.dispose()
        XCTAssertEqual(sink.count, n)
    }

    func testWithLatestFromOfTwoNodeSources() {
        let a = BudgetNodeSource<Int>()
        let b = BudgetNodeSource<Int>()
        let sink = BudgetCountingNode<Int>()
        let subscription = a.withLatestFrom(b) { $0 &+ $1 }.subscribe(node: sink)
        let n = iterations
        for i in 0..<n {
            b.push(i)
            a.push(i)
        }
        subscription.dispose()
        XCTAssertEqual(sink.count, n)
    }
}

/// A hot source that hands elements straight to its one observer node, as a subject does.
final class BudgetNodeSource<Element>: Observable<Element> {
    private var node: ObserverNode<Element>?

    override func subscribe(node observer: ObserverNode<Element>) -> Disposable {
        node = observer
        return Disposables.create { self.node = nil }
    }

    func push(_ element: Element) {
        node?.onNext(element)
    }
}

/// Counts elements, nothing else.
final class BudgetCountingNode<Element>: ObserverNode<Element> {
    private(set) var count = 0
    override func onNext(_ element: Element) { count &+= 1 }
    override func onError(_ error: Swift.Error) {}
    override func onCompleted() {}
}
