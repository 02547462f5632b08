import BinderyDemo
import Bindery
import BinderyTesting
import XCTest

final class ReviewSceneTests: XCTestCase {
    func testTheTreeIsNamedAfterPropertiesAndTheTwoRatingsAreIndependent() throws {
        let client = try demoClient("review")
        XCTAssertEqual(client.widgets.prefix(3).map(\.id), ["view", "content", "intro"])
        XCTAssertEqual(client.widget("food.stars")?.text, "★★★☆☆")
        XCTAssertEqual(client.tap("food.more").changeDescriptions,
                       ["food.stars.text = \"★★★★☆\"", "summary.text = \"Food 4 of 5, service 3 of 5.\""])
        XCTAssertNil(client.tap("service.less").errorCode)
        XCTAssertEqual(client.widget("service.stars")?.text, "★★☆☆☆")
        XCTAssertEqual(client.widget("food.stars")?.text, "★★★★☆")
        XCTAssertEqual(client.divergence(), [])
    }

    func testGuestsAreAddedAndRemovedButOneStays() throws {
        let client = try demoClient("review")
        XCTAssertEqual(client.widget("removeGuest")?.isEnabled, false)
        guard case .patch(let added) = client.tap("addGuest") else { return XCTFail("no patch") }
        let guest = try XCTUnwrap(added.added.first)
        XCTAssertEqual(guest.kind, "textField")
        XCTAssertEqual(guest.properties["accessibilityLabel"], .string("Guest 2"))
        XCTAssertEqual(client.widget("removeGuest")?.isEnabled, true)
        XCTAssertNil(client.type("Grace", into: guest.id).errorCode)

        guard case .patch(let removed) = client.tap("removeGuest") else { return XCTFail("no patch") }
        XCTAssertEqual(removed.removed, [guest.id])
        XCTAssertEqual(client.widget("removeGuest")?.isEnabled, false)
        XCTAssertEqual(client.tap("removeGuest").errorCode, "disabled")  // the last guest stays
        XCTAssertEqual(client.widgets.filter { $0.kind == "textField" }.count, 1)
        XCTAssertEqual(client.divergence(), [])
    }
}
