import Foundation
import RxBlocking
import RxCore
import XCTest

/// Blocking on sources that send from other threads (run under the thread sanitizer).
final class BlockingConcurrencyTests: XCTestCase {
    private let background = ConcurrentDispatchQueueScheduler(qos: .default)

    func testMainThreadWaitsForElementsFromAnotherThread() throws {
        let source = Observable.of(1, 2, 3).subscribe(on: background)
        XCTAssertEqual(try source.toBlocking(timeout: 5).toArray(), [1, 2, 3])
        let ticks = Observable<Int>.interval(.milliseconds(2), scheduler: background)
        XCTAssertEqual(try ticks.toBlocking(timeout: 5).first(), 0)
    }

    func testBackgroundThreadWaitsOnTheCondition() {
        let done = expectation(description: "blocked call returned")
        let scheduler = background
        let results = Results()
        DispatchQueue.global().async {
            let ticks = Observable<Int>.interval(.milliseconds(2), scheduler: scheduler)
            results.set(try? ticks.take(3).toBlocking(timeout: 5).toArray())
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(results.get(), [0, 1, 2])
    }

    func testTimeoutWhileAnotherThreadSendsKeepsTheElementsSoFar() {
        let ticks = Observable<Int>.interval(.milliseconds(5), scheduler: background)
        guard case .failed(let elements, RxError.timeout) = ticks.toBlocking(timeout: 0.2).materialize() else {
            return XCTFail("expected a timeout")
        }
        XCTAssertFalse(elements.isEmpty)
        XCTAssertEqual(elements, Array(0..<elements.count))
    }
}

private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var value: [Int]?
    func set(_ value: [Int]?) { lock.lock(); self.value = value; lock.unlock() }
    func get() -> [Int]? { lock.lock(); defer { lock.unlock() }; return value }
}
