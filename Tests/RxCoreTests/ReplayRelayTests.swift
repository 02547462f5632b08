import RxCore
import XCTest

final class ReplayRelayTests: XCTestCase {
    func testBoundedReplay() {
        let relay = ReplayRelay<Int>.create(bufferSize: 2)
        relay.accept(1)
        relay.accept(2)
        relay.accept(3)
        let recorder = SubjectEventRecorder<Int>()
        _ = relay.subscribe(recorder)
        relay.accept(4)
        XCTAssertEqual(recorder.events, [.next(2), .next(3), .next(4)])
    }

    func testUnboundedReplay() {
        let relay = ReplayRelay<Int>.createUnbounded()
        let alias = ReplayRelay<Int>.createUnbound()
        for value in 1...5 {
            relay.accept(value)
            alias.accept(value)
        }
        let recorder = SubjectEventRecorder<Int>()
        let aliasRecorder = SubjectEventRecorder<Int>()
        _ = relay.asObservable().subscribe(recorder)
        _ = alias.asObservable().subscribe(aliasRecorder)
        XCTAssertEqual(recorder.elements, [1, 2, 3, 4, 5])
        XCTAssertEqual(aliasRecorder.elements, [1, 2, 3, 4, 5])
    }
}
