import Dispatch
import Foundation
import RxCore
import XCTest

/// Sources of multi-source operators emitting from different threads at once. Also run
/// under the thread sanitizer (`make test-tsan` runs every class named *Concurrency*).
final class CombiningConcurrencyTests: XCTestCase {
    private let iterations = 20_000

    func testCombineLatestFromTwoThreads() {
        let a = ThreadSource<Int>()
        let b = ThreadSource<Int>()
        let results = Recorder<(Int, Int)>()
        let subscription = Observable.combineLatest(a.observable, b.observable)
            .subscribe(onNext: { results.append($0) }, onCompleted: { results.complete() })
        a.onNext(0)
        b.onNext(0)
        let n = iterations
        concurrently(
            { for i in 1...n { a.onNext(i) } },
            { for i in 1...n { b.onNext(i) } }
        )
        concurrently({ a.onCompleted() }, { b.onCompleted() })

        let values = results.values
        XCTAssertEqual(values.count, 1 + 2 * n, "every element of either source produces one result")
        // Serialised by the sink's lock: each result changes exactly one side by one.
        var brokenSteps = 0
        for (previous, next) in zip(values, values.dropFirst()) {
            let stepA = next.0 - previous.0
            let stepB = next.1 - previous.1
            if !((stepA == 1 && stepB == 0) || (stepA == 0 && stepB == 1)) { brokenSteps += 1 }
        }
        XCTAssertEqual(brokenSteps, 0)
        XCTAssertTrue(values.last.map { $0 == (n, n) } ?? false)
        XCTAssertEqual(results.completions, 1)
        subscription.dispose()
    }

    func testMergeFromTwoThreads() {
        let a = ThreadSource<Int>()
        let b = ThreadSource<Int>()
        let results = Recorder<Int>()
        let subscription = Observable.merge(a.observable, b.observable)
            .subscribe(onNext: { results.append($0) }, onCompleted: { results.complete() })
        let n = iterations
        concurrently(
            { for i in 1...n { a.onNext(i) } },
            { for i in 1...n { b.onNext(-i) } }
        )
        XCTAssertEqual(results.completions, 0)
        concurrently({ a.onCompleted() }, { b.onCompleted() })

        let values = results.values
        XCTAssertEqual(values.count, 2 * n)
        XCTAssertEqual(values.filter { $0 > 0 }, Array(1...n), "each source's order is kept")
        XCTAssertEqual(values.filter { $0 < 0 }, (1...n).map { -$0 })
        XCTAssertEqual(results.completions, 1, "completes once, after both")
        subscription.dispose()
    }

    func testZipFromTwoThreadsPairsByIndex() {
        let a = ThreadSource<Int>()
        let b = ThreadSource<Int>()
        let results = Recorder<(Int, Int)>()
        let subscription = Observable.zip(a.observable, b.observable)
            .subscribe(onNext: { results.append($0) }, onCompleted: { results.complete() })
        let n = iterations
        concurrently(
            { for i in 0..<n { a.onNext(i) } },
            { for i in 0..<n { b.onNext(i) } }
        )
        concurrently({ a.onCompleted() }, { b.onCompleted() })

        let values = results.values
        XCTAssertEqual(values.count, n)
        XCTAssertEqual(values.map(\.0), Array(0..<n))
        XCTAssertEqual(values.map(\.1), Array(0..<n))
        XCTAssertEqual(results.completions, 1)
        subscription.dispose()
    }

    func testFlatMapInnersOnTwoThreads() {
        let outer = ThreadSource<Int>()
        let inners = [ThreadSource<Int>(), ThreadSource<Int>()]
        let results = Recorder<Int>()
        let subscription = outer.observable
            .flatMap { inners[$0].observable }
            .subscribe(onNext: { results.append($0) }, onCompleted: { results.complete() })
        outer.onNext(0)
        outer.onNext(1)
        let n = iterations
        concurrently(
            { for i in 1...n { inners[0].onNext(i) }; inners[0].onCompleted() },
            { for i in 1...n { inners[1].onNext(-i) }; outer.onCompleted(); inners[1].onCompleted() }
        )
        XCTAssertEqual(results.values.count, 2 * n)
        XCTAssertEqual(results.completions, 1)
        subscription.dispose()
    }

    func testWithLatestFromWithTheSecondOnAnotherThread() {
        let first = ThreadSource<Int>()
        let second = ThreadSource<Int>()
        let results = Recorder<(Int, Int)>()
        let subscription = first.observable.withLatestFrom(second.observable) { ($0, $1) }
            .subscribe(onNext: { results.append($0) })
        second.onNext(0)
        let n = iterations
        concurrently(
            { for i in 1...n { first.onNext(i) } },
            { for i in 1...n { second.onNext(i) } }
        )
        let values = results.values
        XCTAssertEqual(values.map(\.0), Array(1...n), "second had a value throughout")
        XCTAssertEqual(zip(values, values.dropFirst()).filter { $0.1.1 < $0.0.1 }.count, 0, "second's values never go back")
        subscription.dispose()
    }

    func testDisposeWhileSourcesEmit() {
        // No crash and no race report when the subscription goes away mid-stream.
        for _ in 0..<20 {
            let a = ThreadSource<Int>()
            let b = ThreadSource<Int>()
            let results = Recorder<Int>()
            let subscription = Observable.combineLatest(a.observable, b.observable) { $0 + $1 }
                .subscribe(onNext: { results.append($0) })
            a.onNext(0)
            b.onNext(0)
            concurrently(
                { for i in 1...1_000 { a.onNext(i) } },
                { for i in 1...1_000 { b.onNext(i) } },
                { subscription.dispose() }
            )
            XCTAssertLessThanOrEqual(results.values.count, 2_001)
        }
    }

    // MARK: - Helpers

    /// Runs the closures on separate threads at the same time and waits for all of them.
    private func concurrently(_ bodies: (() -> Void)...) {
        let group = DispatchGroup()
        let start = DispatchSemaphore(value: 0)
        for body in bodies {
            let work = ConcurrencyTestBox(body)
            DispatchQueue.global().async(group: group) {
                start.wait()
                work.value()
            }
        }
        for _ in bodies { start.signal() }
        group.wait()
    }
}

/// Moves non-Sendable test closures to worker threads; the tests synchronise by joining.
private struct ConcurrencyTestBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// A source whose one observer is fed from whichever thread calls it (each source from
/// one thread at a time, as the Rx grammar requires).
private final class ThreadSource<Element>: @unchecked Sendable {
    private var observer: AnyObserver<Element>?
    private(set) lazy var observable: Observable<Element> = Observable.create { [unowned self] observer in
        self.observer = observer
        return Disposables.create()
    }

    func onNext(_ element: Element) { observer?.onNext(element) }
    func onCompleted() { observer?.onCompleted() }
}

/// Records what an observer receives; guarded by its own lock.
private final class Recorder<Element>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Element] = []
    private var completedCount = 0

    func append(_ element: Element) {
        lock.lock()
        storage.append(element)
        lock.unlock()
    }

    func complete() {
        lock.lock()
        completedCount += 1
        lock.unlock()
    }

    var values: [Element] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }

    var completions: Int {
        lock.lock()
        defer { lock.unlock() }
        return completedCount
    }
}
