import Foundation
import RxCore
import RxTesting
import XCTest

final class DecodeTests: XCTestCase {
    private struct Point: Decodable, Equatable {
        let x: Int
        let y: Int
    }

    func testDecodesEachElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, Data(#"{"x":1,"y":2}"#.utf8)),
            .next(220, Data(#"{"x":3,"y":4}"#.utf8)),
            .completed(250),
        ])
        let res = scheduler.start { xs.decode(type: Point.self, decoder: JSONDecoder()) }
        XCTAssertEqual(res.events, [.next(210, Point(x: 1, y: 2)), .next(220, Point(x: 3, y: 4)), .completed(250)])
    }

    func testADecodingErrorEndsTheSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, Data("nope".utf8)), .next(220, Data(#"{"x":3,"y":4}"#.utf8))])
        let res = scheduler.start { xs.decode(type: Point.self, decoder: JSONDecoder()) }
        XCTAssertEqual(res.events.count, 1)
        XCTAssertTrue(res.events.first?.value.error is DecodingError)
        XCTAssertEqual(res.events.first?.time, 210)
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 210)])
    }
}
