import Dispatch
import RxCore
import Synchronization
import XCTest

/// A thread-safe counter.
final class DisposablesTestCounter: Sendable {
    private let storage = Atomic<Int>(0)

    func increment() {
        storage.wrappingAdd(1, ordering: .relaxed)
    }

    var value: Int {
        storage.load(ordering: .acquiring)
    }
}

/// Disposables that count how often each one was disposed.
final class DisposablesTestCounts: @unchecked Sendable { // `lock` guards `counts`
    private let lock = NSLock()
    private var counts: [Int: Int] = [:]

    func disposable(_ id: Int) -> Disposable {
        Disposables.create { [self] in
            lock.lock()
            counts[id, default: 0] += 1
            lock.unlock()
        }
    }

    /// Ids disposed other than exactly once, among `ids`.
    func notDisposedExactlyOnce(_ ids: Range<Int>) -> [Int] {
        lock.lock()
        defer { lock.unlock() }
        return ids.filter { counts[$0] != 1 }
    }
}

final class DisposablesConcurrencyTests: XCTestCase {
    func testCreateWithActionDisposedConcurrentlyRunsOnce() {
        for _ in 0..<200 {
            let runs = DisposablesTestCounter()
            let disposable = UncheckedBox(Disposables.create { runs.increment() })
            DispatchQueue.concurrentPerform(iterations: 8) { _ in disposable.value.dispose() }
            XCTAssertEqual(runs.value, 1)
        }
    }

    func testBinaryDisposableDisposedConcurrentlyDisposesEachOnce() {
        for _ in 0..<200 {
            let counts = DisposablesTestCounts()
            let both = UncheckedBox(Disposables.create(counts.disposable(0), counts.disposable(1)))
            DispatchQueue.concurrentPerform(iterations: 8) { _ in both.value.dispose() }
            XCTAssertEqual(counts.notDisposedExactlyOnce(0..<2), [])
        }
    }

    func testCompositeConcurrentInsertRemoveAndDisposeDisposesEachOnce() {
        let counts = DisposablesTestCounts()
        let composite = CompositeDisposable()
        let perThread = 200
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 0..<perThread {
                let id = thread * perThread + index
                if let key = composite.insert(counts.disposable(id)), index % 3 == 0 {
                    composite.remove(for: key)
                }
                if thread == 3 && index == perThread / 2 {
                    composite.dispose()
                }
            }
        }
        composite.dispose()
        XCTAssertEqual(counts.notDisposedExactlyOnce(0..<(4 * perThread)), [])
        XCTAssertEqual(composite.count, 0)
    }

    func testSerialConcurrentReplaceAndDisposeDisposesEachOnce() {
        let counts = DisposablesTestCounts()
        let serial = SerialDisposable()
        let perThread = 200
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 0..<perThread {
                serial.disposable = counts.disposable(thread * perThread + index)
                if thread == 0 && index == perThread / 2 {
                    serial.dispose()
                }
            }
        }
        serial.dispose()
        XCTAssertEqual(counts.notDisposedExactlyOnce(0..<(4 * perThread)), [])
    }

    func testSingleAssignmentSetRacingDisposeDisposesOnce() {
        for _ in 0..<500 {
            let counts = DisposablesTestCounts()
            let single = SingleAssignmentDisposable()
            DispatchQueue.concurrentPerform(iterations: 4) { index in
                if index == 0 {
                    single.setDisposable(counts.disposable(0))
                } else {
                    single.dispose()
                }
            }
            XCTAssertEqual(counts.notDisposedExactlyOnce(0..<1), [])
        }
    }

    func testRefCountConcurrentRetainAndReleaseDisposesUnderlyingOnceAfterAll() {
        for _ in 0..<100 {
            let runs = DisposablesTestCounter()
            let refCount = RefCountDisposable(disposable: Disposables.create { runs.increment() })
            let inner = UncheckedBox((0..<16).map { _ in refCount.retain() })
            DispatchQueue.concurrentPerform(iterations: 17) { index in
                if index == 16 {
                    refCount.dispose()
                } else {
                    inner.value[index].dispose()
                    inner.value[index].dispose()
                }
            }
            XCTAssertEqual(runs.value, 1)
        }
    }

    func testDisposeBagConcurrentInsertDisposesEverythingOnceOnDeinit() {
        let counts = DisposablesTestCounts()
        do {
            let bag = DisposeBag()
            DispatchQueue.concurrentPerform(iterations: 4) { thread in
                for index in 0..<100 {
                    bag.insert(counts.disposable(thread * 100 + index))
                }
            }
            withExtendedLifetime(bag) {
                XCTAssertEqual(counts.notDisposedExactlyOnce(0..<400).count, 400, "nothing disposed before deinit")
            }
        }
        XCTAssertEqual(counts.notDisposedExactlyOnce(0..<400), [])
    }
}
