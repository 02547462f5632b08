import Dispatch
import Foundation
import RxCore
import XCTest

/// Multi-source operators must not dispose an inner subscription while holding their own
/// lock (RxSwift #2703, #2711): a source whose teardown takes a lock that another thread
/// holds while sending into the operator would deadlock. Each test builds exactly that
/// inversion and fails on a timeout instead of hanging.
final class LockOrderConcurrencyTests: XCTestCase {
    func testMergeCollection() {
        assertNoLockInversion { Observable.merge([$0, $1]) }
    }

    func testMergeVariadic() {
        assertNoLockInversion { Observable.merge($0, $1) }
    }

    func testMergeOfObservables() {
        assertNoLockInversion { Observable.from([$0, $1]).merge() }
    }

    func testMergeMaxConcurrent() {
        assertNoLockInversion { Observable.from([$0, $1]).merge(maxConcurrent: 2) }
    }

    func testFlatMap() {
        assertNoLockInversion { a, b in Observable.from([a, b]).flatMap { $0 } }
    }

    func testZipCollection() {
        assertNoLockInversion { Observable.zip([$0, $1]).map { $0[0] } }
    }

    func testZipArity() {
        assertNoLockInversion { Observable.zip($0, $1) { a, b in a + b } }
    }

    func testCombineLatestCollection() {
        assertNoLockInversion { Observable.combineLatest([$0, $1]).map { $0[0] } }
    }

    func testCombineLatestArity() {
        assertNoLockInversion { Observable.combineLatest($0, $1) { a, b in a + b } }
    }

    /// Thread 1 holds `foreign`, waits until source A's teardown (which needs `foreign`)
    /// has started on thread 2 — A completed, so the operator unsubscribes it — and then
    /// sends into source B (then releases `foreign`). With the teardown under the operator's lock, thread 1 waits for
    /// that lock and thread 2 for `foreign`, forever.
    private func assertNoLockInversion(
        _ combine: (Observable<Int>, Observable<Int>) -> Observable<Int>,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let state = InversionState()
        let a = Observable<Int>.create { observer in
            state.completing = observer
            return Disposables.create {
                state.teardownStarted.signal()
                state.foreign.lock()
                state.foreign.unlock()
            }
        }
        let b = Observable<Int>.create { observer in
            state.sending = observer
            return Disposables.create()
        }
        let subscription = combine(a, b).subscribe()
        let group = DispatchGroup()
        let foreignHeld = DispatchSemaphore(value: 0)
        DispatchQueue.global().async(group: group) {
            // Takes and releases `foreign` on this one thread (a mutex must be unlocked by
            // the thread that locked it).
            state.foreign.lock()
            foreignHeld.signal()
            // Bounded: a fixed operator may already have finished the teardown's signal.
            _ = state.teardownStarted.wait(timeout: .now() + 2)
            state.sending?.onNext(1)
            state.foreign.unlock()
        }
        DispatchQueue.global().async(group: group) {
            _ = foreignHeld.wait(timeout: .now() + 2)
            state.completing?.onCompleted()
        }
        let finished = group.wait(timeout: .now() + 5) == .success
        XCTAssertTrue(finished, "deadlock: the operator disposed a source under its own lock", file: file, line: line)
        if finished { subscription.dispose() }
    }
}

/// Shared between the test's threads; each field is written before the threads start, or
/// is itself thread-safe.
private final class InversionState: @unchecked Sendable {
    let foreign = NSLock()
    let teardownStarted = DispatchSemaphore(value: 0)
    var completing: AnyObserver<Int>?
    var sending: AnyObserver<Int>?
}
