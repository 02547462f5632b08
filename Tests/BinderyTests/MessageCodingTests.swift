import Bindery
import Foundation
import RxWidgets
import XCTest

final class MessageCodingTests: XCTestCase {
    private func decode(_ text: String) -> Result<ClientMessage, MessageDecoder.Failure> {
        MessageDecoder.decode(text)
    }

    private func code(_ text: String) -> String? {
        if case .failure(let failure) = decode(text) { return failure.error.code.rawValue }
        return nil
    }

    func testDecodesEvents() {
        XCTAssertEqual(try decode(#"{"type":"event","seq":7,"target":"whiteSlider","event":"valueChanged","value":0.25}"#).get(),
                       .event(EventMessage(seq: 7, target: "whiteSlider", event: "valueChanged", value: .number(0.25))))
        XCTAssertEqual(try decode(#"{"type":"event","target":"b","event":"touchUpInside"}"#).get(),
                       .event(EventMessage(target: "b", event: "touchUpInside")))
        XCTAssertEqual(try decode(#"{"event":"editingChanged","value":null,"target":"t","type":"event","extra":{"x":[1]}}"#).get(),
                       .event(EventMessage(target: "t", event: "editingChanged", value: .null)))
        XCTAssertEqual(try decode(#"{"type":"event","target":"s","event":"valueChanged","value":true}"#).get(),
                       .event(EventMessage(target: "s", event: "valueChanged", value: .bool(true))))
        XCTAssertEqual(try decode(#"{"type":"resync","seq":3}"#).get(), .resync(seq: 3))
        XCTAssertEqual(try decode(#"{"type":"bye"}"#).get(), .bye)
    }

    func testErrorCodes() {
        XCTAssertEqual(code("not json"), "bad-json")
        XCTAssertEqual(code(#"{"type":"event""#), "bad-json")
        XCTAssertEqual(code("[1,2]"), "bad-message")
        XCTAssertEqual(code("42"), "bad-message")
        XCTAssertEqual(code("{}"), "bad-message")
        XCTAssertEqual(code(#"{"type":7}"#), "bad-message")
        XCTAssertEqual(code(#"{"type":"event","event":"touchUpInside"}"#), "bad-message")
        XCTAssertEqual(code(#"{"type":"event","target":"b"}"#), "bad-message")
        XCTAssertEqual(code(#"{"type":"event","target":"b","event":"x","seq":-1}"#), "bad-message")
        XCTAssertEqual(code(#"{"type":"event","target":"b","event":"x","seq":1.5}"#), "bad-message")
        XCTAssertEqual(code(#"{"type":"event","target":"b","event":"x","value":{"a":1}}"#), "bad-message")
        XCTAssertEqual(code(#"{"type":"event","type":"event","target":"b","event":"x"}"#), "bad-message")
        XCTAssertEqual(code(#"{"type":"dance"}"#), "unknown-type")
    }

    func testFailuresKeepTheSeq() {
        guard case .failure(let failure) = decode(#"{"type":"dance","seq":9}"#) else { return XCTFail() }
        XCTAssertEqual(failure.seq, 9)
    }

    func testEncodesPatchesAndErrors() {
        let patch = ServerMessage.patch(PatchMessage(ack: 3, changes: [
            PatchChange(target: "output", prop: "text", value: .string("HI \"X\"")),
            PatchChange(target: "canvas", prop: "backgroundColor", value: .color(Color(white: 0.5, alpha: 1))),
            PatchChange(target: "slider", prop: "value", value: .number(0.5)),
            PatchChange(target: "picker", prop: "selectedSegmentIndex", value: .number(2)),
            PatchChange(target: "button", prop: "isEnabled", value: .bool(false)),
            PatchChange(target: "label", prop: "text", value: .null),
        ]))
        XCTAssertEqual(MessageEncoder.encode(patch),
                       #"{"type":"patch","ack":3,"changes":[{"target":"output","prop":"text","value":"HI \"X\""},"#
                       + ##"{"target":"canvas","prop":"backgroundColor","value":"#808080ff"},"##
                       + #"{"target":"slider","prop":"value","value":0.5},"#
                       + #"{"target":"picker","prop":"selectedSegmentIndex","value":2},"#
                       + #"{"target":"button","prop":"isEnabled","value":false},"#
                       + #"{"target":"label","prop":"text","value":null}]}"#)
        XCTAssertEqual(MessageEncoder.encode(.patch(PatchMessage(changes: []))), #"{"type":"patch","changes":[]}"#)
        XCTAssertEqual(MessageEncoder.encode(.error(ErrorMessage(ack: 1, code: .unknownTarget, message: "no 'x'", target: "x"))),
                       #"{"type":"error","ack":1,"code":"unknown-target","message":"no 'x'","target":"x"}"#)
        XCTAssertEqual(MessageEncoder.encode(.bye(reason: "deleted")), #"{"type":"bye","reason":"deleted"}"#)
    }

    func testEncodesListsAsRowsAndOps() throws {
        let rows = [ListRow(id: "repo-1", fields: ["name": .string("repo-1"), "author": .string("author-1")])]
        let full = MessageEncoder.encode(.patch(PatchMessage(changes: [PatchChange(target: "repoList", prop: "items", value: .rows(rows))])))
        XCTAssertEqual(full, #"{"type":"patch","changes":[{"target":"repoList","prop":"items","value":[{"id":"repo-1","author":"author-1","name":"repo-1"}]}]}"#)
        let ops = MessageEncoder.encode(.patch(PatchMessage(changes: [PatchChange(target: "l", prop: "items", update: .ops([
            .insert(index: 1, rows: rows), .remove(index: 0, count: 2), .update(index: 0, row: rows[0]), .move(from: 2, to: 0),
        ]))])))
        let parsed = try JSONValue.parse(ops)
        let encodedOps = try XCTUnwrap(parsed["changes"]?[0]?["ops"]?.arrayValue)
        XCTAssertEqual(encodedOps.map { $0["op"]?.stringValue }, ["insert", "remove", "update", "move"])
        XCTAssertEqual(encodedOps[0]["index"], .number(1))
        XCTAssertEqual(encodedOps[1]["count"], .number(2))
        XCTAssertEqual(encodedOps[2]["row"]?["id"], .string("repo-1"))
        XCTAssertEqual(encodedOps[3]["from"], .number(2))
    }

    func testChangeSetPrefersOpsWhenSmallerAndFullItemsOtherwise() {
        let old = (1...40).map { ListRow(id: "r\($0)", fields: ["name": .string("row \($0)")]) }
        let appended = old + (41...60).map { ListRow(id: "r\($0)", fields: ["name": .string("row \($0)")]) }
        let change = PatchDiff.patchChange(WidgetChange(widgetID: "l", property: "items", value: .rows(appended), oldValue: .rows(old)))
        guard case .ops(let ops) = change.update else { return XCTFail("expected ops") }
        XCTAssertEqual(ops.count, 1)
        // Replacing everything: the full array is smaller than remove + insert.
        let other = (1...3).map { ListRow(id: "x\($0)") }
        let replaced = PatchDiff.patchChange(WidgetChange(widgetID: "l", property: "items", value: .rows(other), oldValue: .rows(old)))
        XCTAssertEqual(replaced.update, .value(.rows(other)))
        // From nothing (the first rows): full.
        let first = PatchDiff.patchChange(WidgetChange(widgetID: "l", property: "items", value: .rows(other), oldValue: .rows([])))
        XCTAssertEqual(first.update, .value(.rows(other)))
    }

    func testDatesAreLocalISO8601() throws {
        let date = Date(timeIntervalSince1970: 1_714_555_800)  // 2024-05-01T09:30:00Z
        let text = ISO8601.localString(from: date)
        XCTAssertEqual(ISO8601.date(from: text), date)
        XCTAssertEqual(ISO8601.date(from: "2024-05-01T09:30:00Z"), date)
        XCTAssertEqual(ISO8601.date(from: "2024-05-01T18:30:00+09:00"), date)
        XCTAssertEqual(ISO8601.date(from: "2024-05-01T09:30:00.250Z")?.timeIntervalSince1970, 1_714_555_800.25)
        XCTAssertEqual(ISO8601.localString(from: Date(timeIntervalSince1970: 1_714_555_800.25)).contains(".250"), true)
        XCTAssertNil(ISO8601.date(from: "2024-05-01 09:30"))
        XCTAssertNil(ISO8601.date(from: "2024-13-01T09:30:00Z"))
        XCTAssertNil(ISO8601.date(from: "2024-05-01T09:30:00"))
        // The offset written is the process's local one.
        let offset = TimeZone.current.secondsFromGMT(for: date)
        let sign = offset < 0 ? "-" : "+"
        XCTAssertTrue(text.hasSuffix(String(format: "%@%02d:%02d", sign, abs(offset) / 3600, abs(offset) % 3600 / 60)), text)
    }

    func testSceneMessage() throws {
        let scene = SceneMessage(session: "tok", scene: "echo", title: "Echo", resumed: false,
                                 widgets: [WidgetSnapshot(id: "output", kind: "label", properties: ["text": .string("A"), "alpha": .number(1)])],
                                 layout: .column([.widget("output"), .row([]), .group("G", [.widget("x")])]))
        let json = try JSONValue.parse(MessageEncoder.encode(.scene(scene)))
        XCTAssertEqual(json["type"], .string("scene"))
        XCTAssertEqual(json["protocol"], .number(1))
        XCTAssertEqual(json["session"], .string("tok"))
        XCTAssertEqual(json["resumed"], .bool(false))
        XCTAssertEqual(json["widgets"]?[0]?["props"]?["text"], .string("A"))
        XCTAssertEqual(json["layout"]?["column"]?[0], .string("output"))
        XCTAssertEqual(json["layout"]?["column"]?[2]?["group"], .string("G"))
    }
}
