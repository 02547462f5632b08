@testable import Bindery
import RxWidgets
import XCTest

/// The JSON a shared scene's streams carry, and the mirror fed by it (no Redis needed).
final class SharedSceneWireTests: XCTestCase {
    func testAnEventSurvivesTheInbox() throws {
        let events = [
            EventMessage(seq: 7, target: "slider", event: "valueChanged", value: .number(0.25)),
            EventMessage(seq: nil, target: "tags", event: "valueChanged", value: .strings(["a", "b"])),
            EventMessage(seq: 3, target: "table", event: "itemMoved", row: "r1", toSection: "s2", toIndex: 4),
            EventMessage(seq: 4, target: "alert", event: "actionTriggered", action: 1),
            EventMessage(seq: 5, target: "name", event: "editingChanged", value: .string("é \"quoted\"\n")),
        ]
        for event in events {
            XCTAssertEqual(try SharedSceneWire.decodeEvent(MessageEncoder.encode(.event(event))), event)
        }
        XCTAssertThrowsError(try SharedSceneWire.decodeEvent("{\"type\":\"bye\"}"))
    }

    func testAPatchDecodesToTheSameJSON() throws {
        let rows = [ListRow(id: "a", fields: ["name": .string("A"), "n": .number(1)]), ListRow(id: "b")]
        let patch = PatchMessage(ack: 9, removed: ["old"],
                                 added: [WidgetSnapshot(id: "new", kind: "label", properties: ["text": .string("hi")])],
                                 changes: [
                                     PatchChange(target: "list", prop: "items", value: .rows(rows)),
                                     PatchChange(target: "list", prop: "items", update: .ops([
                                         .insert(index: 0, rows: [ListRow(id: "c")]), .remove(index: 1, count: 1),
                                         .update(index: 0, row: ListRow(id: "c", fields: ["x": .bool(true)])),
                                         .move(from: 0, to: 1),
                                     ])),
                                     PatchChange(target: "color", prop: "backgroundColor", value: .color(Color(red: 1, green: 0, blue: 0, alpha: 1))),
                                     PatchChange(target: "label", prop: "text", value: .null),
                                 ])
        let json = MessageEncoder.encode(.patch(patch))
        XCTAssertEqual(MessageEncoder.encode(try MessageDecoder.decodeServerMessage(json)), json)

        let error = ServerMessage.error(ErrorMessage(ack: 2, code: .unknownTarget, message: "no", target: "x"))
        XCTAssertEqual(try MessageDecoder.decodeServerMessage(MessageEncoder.encode(error)), error)
    }

    func testAPlainPatchIsReadWithoutATreeAsTheTreeReadsIt() throws {
        let plain = [
            PatchMessage(changes: [PatchChange(target: "sharedSlider", prop: "value", value: .number(0.125)),
                                   PatchChange(target: "label", prop: "text", value: .string("é \"12%\"\n")),
                                   PatchChange(target: "button", prop: "isEnabled", value: .bool(false)),
                                   PatchChange(target: "label", prop: "accessibilityLabel", value: .null),
                                   PatchChange(target: "stepper", prop: "value", value: .number(-3))]),
            PatchMessage(ack: 12, changes: [PatchChange(target: "s", prop: "value", value: .number(1e-7))]),
            PatchMessage(changes: []),
        ]
        for patch in plain {
            let json = MessageEncoder.encode(.patch(patch))
            let read = try XCTUnwrap(MessageDecoder.decodePlainPatch(json), json)
            XCTAssertEqual(.patch(read), try MessageDecoder.decodeServerMessageThroughTree(json), json)
            XCTAssertEqual(MessageEncoder.encode(.patch(read)), json)
        }
        // Anything else is left to the tree.
        let others: [ServerMessage] = [
            .patch(PatchMessage(removed: ["old"], changes: [])),
            .patch(PatchMessage(added: [WidgetSnapshot(id: "new", kind: "label", properties: [:])], changes: [])),
            .patch(PatchMessage(changes: [PatchChange(target: "tags", prop: "selected", value: .strings(["a"]))])),
            .patch(PatchMessage(changes: [PatchChange(target: "list", prop: "items", update: .ops([.remove(index: 0, count: 1)]))])),
            .error(ErrorMessage(ack: 2, code: .unknownTarget, message: "no", target: "x")),
        ]
        for message in others {
            let json = MessageEncoder.encode(message)
            XCTAssertNil(MessageDecoder.decodePlainPatch(json), json)
            XCTAssertEqual(MessageEncoder.encode(try MessageDecoder.decodeServerMessage(json)), json)
        }
        XCTAssertNil(MessageDecoder.decodePlainPatch("{\"type\":\"patch\",\"changes\":[{\"target\":\"a\",\"prop\":\"b\"}]}"))
        XCTAssertNil(MessageDecoder.decodePlainPatch("{\"type\":\"patch\",\"changes\":[]} x"))
    }

    func testTheMirrorAppliesPatchesAsAClientDoes() throws {
        var mirror = SharedSceneMirror(widgets: [
            WidgetSnapshot(id: "slider", kind: "slider", properties: ["value": .number(0.5)]),
            WidgetSnapshot(id: "list", kind: "listView", properties: ["items": .rows([ListRow(id: "a"), ListRow(id: "b")])]),
            WidgetSnapshot(id: "alert", kind: "alertController", properties: [:]),
        ])
        mirror.apply(PatchMessage(removed: ["alert"],
                                  added: [WidgetSnapshot(id: "toast", kind: "label", properties: ["text": .string("saved")])],
                                  changes: [
                                      PatchChange(target: "slider", prop: "value", value: .number(0.75)),
                                      PatchChange(target: "list", prop: "items", update: .ops([.move(from: 0, to: 1),
                                                                                                 .insert(index: 2, rows: [ListRow(id: "c")])])),
                                  ]))
        XCTAssertEqual(mirror.widgets.map(\.id), ["slider", "list", "toast"])
        XCTAssertEqual(mirror.widgets[0].properties["value"], .number(0.75))
        XCTAssertEqual(mirror.widgets[1].properties["items"], .rows([ListRow(id: "b"), ListRow(id: "a"), ListRow(id: "c")]))
    }

    func testTheDifferenceBetweenTwoTreesTurnsOneIntoTheOther() {
        let before = [
            WidgetSnapshot(id: "slider", kind: "slider", properties: ["value": .number(0.5), "isEnabled": .bool(true)]),
            WidgetSnapshot(id: "gone", kind: "label", properties: ["text": .string("x")]),
            WidgetSnapshot(id: "date", kind: "label", properties: ["text": .string("same")]),
        ]
        let after = [
            WidgetSnapshot(id: "slider", kind: "slider", properties: ["value": .number(0.9), "isEnabled": .bool(true)]),
            WidgetSnapshot(id: "date", kind: "label", properties: ["text": .string("same")]),
            WidgetSnapshot(id: "new", kind: "label", properties: ["text": .string("y")]),
        ]
        let patch = SharedSceneMirror(widgets: before).patch(to: after)
        XCTAssertEqual(patch.removed, ["gone"])
        XCTAssertEqual(patch.added.map(\.id), ["new"])
        XCTAssertEqual(patch.changes, [PatchChange(target: "slider", prop: "value", value: .number(0.9))])
        var mirror = SharedSceneMirror(widgets: before)
        mirror.apply(patch)
        XCTAssertEqual(MessageEncoder.encodeWidgets(mirror.widgets), MessageEncoder.encodeWidgets(after))
        XCTAssertTrue(SharedSceneMirror(widgets: after).patch(to: after).changes.isEmpty)
    }
}
