import BinderyDemo
import Bindery
import BinderyTesting
import XCTest

final class CounterSceneTests: XCTestCase {
    func testTheLabelCountsCharactersAsTheUserTypes() throws {
        let client = try demoClient("counter")
        XCTAssertEqual(client.widgets.map(\.id), ["textField", "countLabel"])
        XCTAssertEqual(client.widget("countLabel")?.text, "0개")

        XCTAssertEqual(client.type("a", into: "textField").changeDescriptions, ["countLabel.text = \"1개\""])
        XCTAssertEqual(client.type("ab", into: "textField").changeDescriptions, ["countLabel.text = \"2개\""])
        XCTAssertEqual(client.type("안녕하세요", into: "textField").changeDescriptions, ["countLabel.text = \"5개\""])
        // Grapheme clusters: a thumbs-up with a skin tone is one character.
        XCTAssertEqual(client.type("👍🏽!", into: "textField").changeDescriptions, ["countLabel.text = \"2개\""])
        XCTAssertEqual(client.type("", into: "textField").changeDescriptions, ["countLabel.text = \"0개\""])
        XCTAssertEqual(client.divergence(), [])
    }

    func testFocusAndBlurChangeNothing() throws {
        let client = try demoClient("counter")
        XCTAssertEqual(client.send(event: "editingDidBegin", to: "textField"), .patch(PatchMessage(ack: 1, changes: [])))
        XCTAssertEqual(client.send(event: "editingDidEnd", to: "textField"), .patch(PatchMessage(ack: 2, changes: [])))
        XCTAssertEqual(client.send(event: "valueChanged", to: "textField", value: 1).errorCode, "unknown-event")
    }
}
