import BinderyDemo
import Bindery
import BinderyTesting
import XCTest

final class EchoSceneTests: XCTestCase {
    func testEachEditingChangedYieldsExactlyOneChangeWithTheUppercasedText() throws {
        let client = try demoClient("echo")
        XCTAssertEqual(client.widgets.map(\.id), ["input", "output"])
        XCTAssertEqual(client.widget("output")?.text, "")

        for (seq, text) in ["h", "he", "hello", "hello, 세계", "straße", ""].enumerated() {
            let answer = client.type(text, into: "input")
            XCTAssertEqual(answer.changeDescriptions.count, 1, "one change for \"\(text)\"")
            XCTAssertEqual(client.takePatches(), [PatchMessage(ack: seq + 1, changes: [
                PatchChange(target: "output", prop: "text", value: .string(text.uppercased())),
            ])], "one patch for \"\(text)\"")
        }
        XCTAssertEqual(client.widget("output")?.text, "")
        XCTAssertEqual(client.divergence(), [])
    }

    func testTheSameTextTwiceIsAnEmptyPatch() throws {
        let client = try demoClient("echo")
        client.type("abc", into: "input")
        XCTAssertEqual(client.type("abc", into: "input"), .patch(PatchMessage(ack: 2, changes: [])))
    }
}
