import Dispatch
import Foundation
import RxCore
import XCTest

/// `replay(_:).refCount()` subscribed from many threads while its source ends at once:
/// a connection's end detaches its subject before the terminal event reaches the
/// subscribers, so one subscribing in between joins the next subject; it must get a
/// connection of its own, not be counted in the ending one and left waiting forever.
final class RefCountConcurrencyTests: XCTestCase {
    func testSubscribersRacingTheEndOfAConnectionAllTerminate() {
        for round in 0..<30 {
            let source = Observable<Int>.create { observer in
                observer.onNext(1)
                observer.onNext(2)
                observer.onCompleted()
                return Disposables.create()
            }
            let shared = RefCountTestBox(source.replay(1).refCount())
            let group = DispatchGroup()
            let lastElements = RefCountTestCounter()
            for _ in 0..<200 {
                group.enter()
                DispatchQueue.global().async {
                    var last: Int?
                    _ = shared.value.subscribe(
                        onNext: { last = $0 },
                        onError: { _ in group.leave() },
                        onCompleted: {
                            if last == 2 { lastElements.increment() }
                            group.leave()
                        }
                    )
                }
            }
            let finished = group.wait(timeout: .now() + 10) == .success
            XCTAssertTrue(finished, "round \(round): a subscriber never terminated")
            if !finished { return }
            XCTAssertEqual(lastElements.value, 200, "every subscriber saw 2 (live or replayed) before completing")
        }
    }
}

private struct RefCountTestBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

private final class RefCountTestCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
