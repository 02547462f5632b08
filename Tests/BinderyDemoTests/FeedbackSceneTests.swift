import BinderyDemo
import Bindery
import BinderyTesting
import RxWidgets
import XCTest

/// The `feedback` scene: every step is an alert or a sheet, chosen over the protocol.
final class FeedbackSceneTests: XCTestCase {
    private func alert(_ client: SceneTestClient) -> SceneTestWidget? {
        client.widgets.first { $0.kind == "alertController" }
    }

    private func choose(_ client: SceneTestClient, _ action: Int, seq: Int) {
        let id = alert(client)?.id ?? "none"
        _ = client.send(text: #"{"type":"event","seq":\#(seq),"target":"\#(id)","event":"actionTriggered","action":\#(action)}"#)
    }

    func testTheRatingSheetAndItsCancel() throws {
        let client = try demoClient("feedback")
        XCTAssertEqual(client.widget("sendButton")?.isEnabled, false, "nothing to send yet")
        client.tap("rateButton")
        let sheet = try XCTUnwrap(alert(client))
        XCTAssertEqual(sheet["preferredStyle"], .string("actionSheet"))
        guard case .rows(let actions)? = sheet["actions"] else { return XCTFail("no actions") }
        XCTAssertEqual(actions.map { $0["title"] }, [.string("Cancel"), .string("Loved it"), .string("It was fine"), .string("Not great")])
        XCTAssertEqual(actions.map { $0["style"] }, [.string("cancel"), .string("default"), .string("default"), .string("destructive")])
        choose(client, 0, seq: 2)  // Escape in the browser: the cancel action
        XCTAssertNil(alert(client), "dismissed")
        XCTAssertEqual(client.widget("statusLabel")?.text, "Rating cancelled.")

        client.tap("rateButton")
        choose(client, 1, seq: 4)
        XCTAssertEqual(client.widget("ratingLabel")?.text, "Rating: Loved it")
        XCTAssertEqual(client.widget("sendButton")?.isEnabled, true)
    }

    func testTheCommentAlertSavesWhatWasTypedAndSendAsksFirst() throws {
        let client = try demoClient("feedback")
        client.tap("commentButton")
        let box = try XCTUnwrap(alert(client))
        guard case .strings(let fields)? = box["textFields"], let field = fields.first else { return XCTFail("no text field") }
        guard case .rows(let before)? = box["actions"] else { return XCTFail("no actions") }
        XCTAssertEqual(before[1]["isEnabled"], .bool(false), "Save waits for a comment")
        client.type("Bigger buttons", into: field)
        guard case .rows(let after)? = alert(client)?["actions"] else { return XCTFail("no actions") }
        XCTAssertNil(after[1]["isEnabled"], "Save is enabled (the default is left out)")
        choose(client, 1, seq: 3)
        XCTAssertEqual(client.widget("commentLabel")?.text, "Comment: Bigger buttons")
        XCTAssertNil(client.widget(field), "the alert's text field went with it")

        client.tap("sendButton")
        XCTAssertEqual(alert(client)?["title"], .string("Send feedback?"))
        choose(client, 1, seq: 5)
        XCTAssertEqual(client.widget("statusLabel")?.text, "Thank you! Sent: no rating, “Bigger buttons” (topic: General).")
        XCTAssertEqual(client.widget("commentLabel")?.text, "Comment: none yet")
        XCTAssertEqual(client.divergence(), [])
    }

    func testThePickerChoosesTheTopicAndTheNotesAreCounted() throws {
        let client = try demoClient("feedback")
        XCTAssertEqual(client.widget("topicPicker")?["items"], .strings(["General", "Design", "Bugs"]))
        client.send(event: "valueChanged", to: "topicPicker", value: 2)
        client.type("Line one\nline two", into: "notesView")
        XCTAssertEqual(client.widget("notesCountLabel")?.text, "Notes: 17 characters")
        client.tap("rateButton")
        choose(client, 1, seq: 4)
        client.tap("sendButton")
        choose(client, 1, seq: 6)
        XCTAssertEqual(client.widget("statusLabel")?.text, "Thank you! Sent: Loved it, no comment (topic: Bugs).")
    }

    func testClearIsADestructiveConfirmation() throws {
        let client = try demoClient("feedback")
        client.tap("rateButton")
        choose(client, 2, seq: 2)
        client.tap("clearButton")
        guard case .rows(let actions)? = alert(client)?["actions"] else { return XCTFail("no actions") }
        XCTAssertEqual(actions.map { $0["style"] }, [.string("cancel"), .string("destructive")])
        choose(client, 0, seq: 4)
        XCTAssertEqual(client.widget("ratingLabel")?.text, "Rating: It was fine", "Keep keeps it")
        client.tap("clearButton")
        choose(client, 1, seq: 6)
        XCTAssertEqual(client.widget("ratingLabel")?.text, "Rating: none yet")
        XCTAssertEqual(client.widget("statusLabel")?.text, "Cleared.")
    }
}
