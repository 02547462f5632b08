import RxTesting
import XCTest

final class SubscriptionTests: XCTestCase {
    func testOpenSubscriptionEndsAtIntMax() {
        XCTAssertEqual(Subscription(200).unsubscribe, Int.max)
        XCTAssertEqual(Subscription(200), Subscription(200, Int.max))
        XCTAssertNotEqual(Subscription(200), Subscription(200, 300))
    }

    func testHashableForSets() {
        let set: Set = [Subscription(200, 300), Subscription(200, 300), Subscription(200)]
        XCTAssertEqual(set.count, 2)
    }

    func testDebugDescriptionAsRxTest() {
        XCTAssertEqual(Subscription(200).debugDescription, "(200 : Infinity)")
        XCTAssertEqual(Subscription(200, 300).debugDescription, "(200 : 300)")
    }
}
