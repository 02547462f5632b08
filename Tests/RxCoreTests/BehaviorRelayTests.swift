import RxCore
import XCTest

final class BehaviorRelayTests: XCTestCase {
    func testValueAndAccept() {
        let relay = BehaviorRelay(value: "a")
        XCTAssertEqual(relay.value, "a")
        relay.accept("b")
        XCTAssertEqual(relay.value, "b")
    }

    func testNewSubscribersGetCurrentValueThenLaterOnes() {
        let relay = BehaviorRelay(value: 0)
        relay.accept(1)
        let recorder = SubjectEventRecorder<Int>()
        let subscription = relay.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.next(1)])
        relay.accept(2)
        subscription.dispose()
        relay.accept(3)
        XCTAssertEqual(recorder.events, [.next(1), .next(2)])
    }

    func testAsObservableChainsWithOperators() {
        let relay = BehaviorRelay(value: 1)
        var seen: [Int] = []
        _ = relay.asObservable().map { $0 * 10 }.subscribe(onNext: { seen.append($0) })
        relay.accept(2)
        XCTAssertEqual(seen, [10, 20])
    }
}
