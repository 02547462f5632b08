@testable import Bindery
import Foundation
import RxCore
import RxTesting
import RxWidgets
import XCTest

/// The golden wire files (`Tests/Golden`, PROTOCOL.md's examples copied literally): every
/// client example decodes to the fields it shows, every server example is what the encoder
/// writes for the message it describes, and both survive a round trip. The browser
/// client's tests read the same files (`Tests/Client/golden.test.mjs`).
final class GoldenMessageTests: XCTestCase {
    /// `Tests/Golden`, found from this file so the tests run from any working directory.
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Golden")

    /// The golden files whose names start with `prefix`, sorted.
    private func files(_ prefix: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: Self.folder.path)
            .filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }.sorted()
    }

    /// The text of golden file `name`, without its final line break.
    private func text(_ name: String) throws -> String {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent(name))
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines)
    }

    /// `json` parsed with its objects' members sorted by key: equal for equal JSON objects,
    /// whatever order the encoder writes keys in.
    private func canonical(_ json: String) throws -> JSONValue {
        func sorted(_ value: JSONValue) -> JSONValue {
            switch value {
            case .array(let elements): return .array(elements.map(sorted))
            case .object(let members):
                return .object(members.map { JSONMember(key: $0.key, value: sorted($0.value)) }.sorted { $0.key < $1.key })
            default: return value
            }
        }
        return sorted(try JSONValue.parse(json))
    }

    // MARK: - What each file says

    /// The message each `client-*.json` is, field by field.
    static let clientMessages: [String: ClientMessage] = [
        "client-event-valueChanged.json":
            .event(EventMessage(seq: 7, target: "whiteSlider", event: "valueChanged", value: .number(0.25))),
        "client-event-touchUpInside.json": .event(EventMessage(seq: 8, target: "resetButton", event: "touchUpInside")),
        "client-event-editingChanged.json":
            .event(EventMessage(seq: 9, target: "textField", event: "editingChanged", value: .string("hello"))),
        "client-resync.json": .resync(seq: 10),
        "client-bye.json": .bye,
        "client-event-itemSelected.json": .event(EventMessage(seq: 1, target: "pets", event: "itemSelected", row: "cat-1")),
        "client-event-itemMoved.json":
            .event(EventMessage(seq: 2, target: "pets", event: "itemMoved", row: "cat-0", toSection: "Dogs", toIndex: 1)),
        "client-event-itemSelected-unknownRow.json":
            .event(EventMessage(seq: 3, target: "pets", event: "itemSelected", row: "cat-9")),
        "client-rows.json": .rows(RowsRequest(seq: 12, target: "numbersTable", from: 9800, to: 10000)),
        "client-event-actionTriggered.json":
            .event(EventMessage(seq: 5, target: "alertController-1", event: "actionTriggered", value: .strings(["Ada"]), action: 1)),
        "client-event-back.json": .event(EventMessage(seq: 4, target: "navigation", event: "back", row: "screen-2")),
        "client-uploadBegin.json": .upload(UploadMessage(seq: 1, target: "picker", upload: "u1",
                                                         step: .begin(name: "a.txt", contentType: "text/plain", size: 5, last: true))),
        "client-uploadChunk.json": .upload(UploadMessage(seq: 2, target: "picker", upload: "u1",
                                                         step: .chunk(offset: 0, data: Data("hello".utf8)))),
        "client-uploadEnd.json": .upload(UploadMessage(seq: 3, target: "picker", upload: "u1", step: .end)),
        // No contentType: the decoder's default; no `last`: true.
        "client-uploadBegin-tooLarge.json": .upload(UploadMessage(
            seq: 4, target: "picker", upload: "u2",
            step: .begin(name: "big.bin", contentType: "application/octet-stream", size: 2_097_152, last: true))),
        "client-event-recognized.json": .event(EventMessage(seq: 1, target: "tapGestureRecognizer-3", event: "recognized")),
        "client-event-editingChanged-api.json":
            .event(EventMessage(seq: 1, target: "input", event: "editingChanged", value: .string("hello"))),
        "client-event-touchUpInside-unknownTarget.json": .event(EventMessage(seq: 2, target: "nope", event: "touchUpInside")),
        "client-event-editingChanged-websocat.json":
            .event(EventMessage(seq: 1, target: "input", event: "editingChanged", value: .string("hi"))),
        "client-event-touchUpInside-label.json": .event(EventMessage(seq: 2, target: "output", event: "touchUpInside")),
    ]

    /// The message each `server-*.json` shows, as the server builds it.
    static let serverMessages: [String: ServerMessage] = {
        func text(_ target: String, _ value: String) -> PatchChange {
            PatchChange(target: target, prop: "text", value: .string(value))
        }
        func row(_ id: String, _ fields: [String: WidgetValue]) -> ListRow { ListRow(id: id, fields: fields) }
        var echo = SceneMessage(
            session: "Yw3Qb0c1l2m3n4o5p6q7rA", scene: "echo", title: "Echo", resumed: false,
            widgets: [
                WidgetSnapshot(id: "input", kind: "textField", properties: [
                    "accessibilityLabel": .string("Your text"), "alpha": .number(1), "backgroundColor": .null,
                    "isEnabled": .bool(true), "isHidden": .bool(false), "isSecureTextEntry": .bool(false),
                    "placeholder": .string("Type here"), "text": .string(""),
                ]),
                WidgetSnapshot(id: "output", kind: "label", properties: [
                    "alpha": .number(1), "backgroundColor": .null, "isHidden": .bool(false), "text": .string(""),
                    "textColor": .color(Color(white: 0, alpha: 1)),
                ]),
            ],
            layout: .column([.widget("input"), .widget("output", caption: "In capitals")]))
        echo.description = "Whatever you type comes back in capital letters."
        return [
            "server-scene-echo.json": .scene(echo),
            "server-patch-ack.json": .patch(PatchMessage(ack: 7, changes: [
                PatchChange(target: "canvas", prop: "backgroundColor", value: .color(Color(hex: "#404040ff")!)),
            ])),
            "server-patch-push.json": .patch(PatchMessage(changes: [text("viewers", "3 online")])),
            "server-patch-rows-insert.json": .patch(PatchMessage(changes: [
                PatchChange(target: "repoList", prop: "items", update: .ops([
                    .insert(index: 20, rows: [row("repo-21", ["author": .string("author-21"), "name": .string("repo-21")])]),
                ])),
            ])),
            "server-error-unknownTarget.json": .error(ErrorMessage(ack: 7, code: .unknownTarget,
                                                                   message: "scene 'echo' has no widget 'nope'", target: "nope")),
            "server-bye-deleted.json": .bye(reason: "deleted"),
            "server-patch-selectedRows.json": .patch(PatchMessage(ack: 1, changes: [
                PatchChange(target: "pets", prop: "selectedRows", value: .strings(["cat-1"])), text("selected", "cat-1"),
            ])),
            "server-patch-rows-move-update.json": .patch(PatchMessage(ack: 2, changes: [
                PatchChange(target: "pets", prop: "items", update: .ops([
                    .move(from: 0, to: 3),
                    .update(index: 3, row: row("cat-0", ["canMove": .bool(true), "section": .string("Dogs"), "text": .string("cat-0")])),
                ])),
            ])),
            "server-error-unknownRow.json": .error(ErrorMessage(ack: 3, code: .unknownRow,
                                                                message: "tableView 'pets' has no row 'cat-9'", target: "pets")),
            "server-patch-alert-added.json": .patch(PatchMessage(ack: 1, added: [
                WidgetSnapshot(id: "alertController-1", kind: "alertController", properties: [
                    "actions": .rows([
                        row("0", ["style": .string("cancel"), "title": .string("Cancel")]),
                        row("1", ["isEnabled": .bool(false), "isPreferred": .bool(true), "style": .string("default"),
                                  "title": .string("Save")]),
                    ]),
                    "alpha": .number(1), "backgroundColor": .null, "isHidden": .bool(false),
                    "message": .string("What should we change?"), "preferredStyle": .string("alert"),
                    "textFields": .strings(["textField-2"]), "title": .string("Your comment"),
                ]),
                WidgetSnapshot(id: "textField-2", kind: "textField", properties: [
                    "alpha": .number(1), "backgroundColor": .null, "focused": .bool(false), "isEnabled": .bool(true),
                    "isHidden": .bool(false), "isSecureTextEntry": .bool(false), "placeholder": .string("Comment"),
                    "text": .string(""),
                ]),
            ], changes: [])),
            "server-patch-alert-removed.json": .patch(PatchMessage(ack: 5, removed: ["textField-2", "alertController-1"],
                                                                   changes: [text("greeting", "Hello, Ada")])),
            "server-patch-navigation-pop.json": .patch(PatchMessage(ack: 4, removed: ["screen-2.stars"], changes: [
                PatchChange(target: "navigation", prop: "screens", update: .ops([.remove(index: 1, count: 1)])),
            ])),
            "server-patch-upload-begin.json": .patch(PatchMessage(ack: 1, changes: [
                text("status", "Uploading a.txt: 0 bytes of 5 bytes"),
            ])),
            "server-patch-upload-progress.json": .patch(PatchMessage(ack: 2, changes: [
                PatchChange(target: "progress", prop: "progress", value: .number(1)),
            ])),
            "server-patch-upload-end.json": .patch(PatchMessage(ack: 3, changes: [
                PatchChange(target: "files", prop: "items", value: .rows([
                    row("0.0", ["canMove": .bool(true), "detailText": .string("text/plain · 5 bytes · “hello”"),
                                "section": .string("0"), "style": .string("subtitle"), "text": .string("a.txt")]),
                ])),
                text("status", "Received a.txt."),
            ])),
            "server-patch-upload-refused.json": .patch(PatchMessage(changes: [
                text("status", "Not uploaded: 'big.bin' is 2 MiB; the largest file allowed is 1 MiB"),
            ])),
            "server-error-uploadTooLarge.json": .error(ErrorMessage(
                ack: 4, code: .uploadTooLarge, message: "'big.bin' is 2 MiB; the largest file allowed is 1 MiB", target: "picker")),
            "server-patch-chart-window.json": .patch(PatchMessage(changes: [
                PatchChange(target: "load", prop: "points", update: .ops([
                    .remove(index: 0, count: 1),
                    .insert(index: 39, rows: [row("cpu/40", ["series": .string("cpu"), "x": .number(40), "y": .number(0.5)])]),
                ])),
            ])),
            "server-patch-echo-api.json": .patch(PatchMessage(ack: 1, changes: [text("output", "HELLO")])),
            "server-error-unknownTarget-api.json": .error(ErrorMessage(ack: 2, code: .unknownTarget,
                                                                       message: "scene 'echo' has no widget 'nope'", target: "nope")),
            "server-patch-echo-websocat.json": .patch(PatchMessage(ack: 1, changes: [text("output", "HI")])),
            "server-error-unknownEvent.json": .error(ErrorMessage(
                ack: 2, code: .unknownEvent, message: "label 'output' is not a control and sends no events", target: "output")),
        ]
    }()

    /// A golden file without an expected value here would be checked by nobody.
    func testEveryGoldenFileHasAnExpectedMessage() throws {
        XCTAssertEqual(try files("client-"), Self.clientMessages.keys.sorted())
        XCTAssertEqual(try files("server-"), Self.serverMessages.keys.sorted())
    }

    // MARK: - Client → server

    func testEveryClientMessageDecodesToTheFieldsItShows() throws {
        for name in try files("client-") {
            switch MessageDecoder.decode(try text(name)) {
            case .success(let message):
                XCTAssertEqual(message, Self.clientMessages[name], name)
            case .failure(let failure):
                XCTFail("\(name): \(failure.error.code.rawValue): \(failure.error.message)")
            }
        }
    }

    /// Events written back as a client sends them (the shared scenes' stream form) are the
    /// golden JSON again, and decode to the same message.
    func testClientEventsRoundTrip() throws {
        var events = 0
        for name in try files("client-event-") {
            guard case .success(.event(let event)) = MessageDecoder.decode(try text(name)) else { return XCTFail(name) }
            let written = MessageEncoder.encode(.event(event))
            XCTAssertEqual(try canonical(written), try canonical(try text(name)), name)
            XCTAssertEqual(try MessageDecoder.decode(written).get(), .event(event), name)
            events += 1
        }
        XCTAssertGreaterThan(events, 10)
    }

    // MARK: - Server → client

    func testEncoderWritesEveryServerMessage() throws {
        for name in try files("server-") {
            let expected = try XCTUnwrap(Self.serverMessages[name], name)
            let encoded = MessageEncoder.encode(expected)
            XCTAssertEqual(try canonical(encoded), try canonical(try text(name)), "\(name): the encoder wrote \(encoded)")
        }
    }

    /// Patches and errors read back (as a shared scene's mirror reads its owner's) and
    /// written again give the same JSON; the other types survive the JSON parser and writer.
    func testServerMessagesRoundTrip() throws {
        for name in try files("server-") {
            let golden = try text(name)
            let again: String
            if name.hasPrefix("server-patch-") || name.hasPrefix("server-error-") {
                let decoded = try MessageDecoder.decodeServerMessage(golden)
                XCTAssertEqual(decoded.type, Self.serverMessages[name]?.type, name)
                XCTAssertEqual(decoded.ack, Self.serverMessages[name]?.ack, name)
                again = MessageEncoder.encode(decoded)
            } else {
                again = try JSONValue.parse(golden).jsonText
            }
            XCTAssertEqual(try canonical(again), try canonical(golden), name)
        }
    }

    // MARK: - One codec, both directions

    /// Fields a golden client file leaves to the decoder's defaults (PROTOCOL.md), which the
    /// encoder then writes: the file's JSON plus these is what comes back.
    static let clientDefaults: [String: [JSONMember]] = [
        "client-uploadBegin-tooLarge.json": [JSONMember(key: "contentType", value: .string("application/octet-stream"))],
    ]

    /// `canonical(json)` with `members` added to its top-level object.
    private func canonical(_ json: String, adding members: [JSONMember]) throws -> JSONValue {
        guard !members.isEmpty, case .object(let own) = try JSONValue.parse(json) else { return try canonical(json) }
        return try canonical(JSONValue.object(own + members).jsonText)
    }

    /// Every client file: decoded, encoded again, it is the file; the expected value encodes
    /// to the file too; and the encoding decodes to the same message.
    func testEveryClientFileRoundTripsThroughTheCodec() throws {
        for name in try files("client-") {
            let golden = try canonical(try text(name), adding: Self.clientDefaults[name] ?? [])
            let decoded = try MessageDecoder.decode(try text(name)).get()
            let encoded = MessageEncoder.encode(decoded)
            XCTAssertEqual(try canonical(encoded), golden, "\(name): the encoder wrote \(encoded)")
            XCTAssertEqual(try MessageDecoder.decode(encoded).get(), decoded, name)
            let expected = try XCTUnwrap(Self.clientMessages[name], name)
            XCTAssertEqual(try canonical(MessageEncoder.encode(expected)), golden, name)
        }
    }

    /// Every server file: decoded, encoded again, it is the file; it decodes to the expected
    /// value (as JSON carries it); and the expected value's encoding, read back and written
    /// again, is the same bytes (what a mirror re-sends).
    func testEveryServerFileRoundTripsThroughTheCodec() throws {
        for name in try files("server-") {
            let golden = try text(name)
            let expected = try XCTUnwrap(Self.serverMessages[name], name)
            let decoded = try MessageDecoder.decodeServerMessage(golden)
            XCTAssertEqual(decoded, asDecoded(expected), name)
            let encoded = MessageEncoder.encode(decoded)
            XCTAssertEqual(try canonical(encoded), try canonical(golden), "\(name): the encoder wrote \(encoded)")
            let written = MessageEncoder.encode(expected)
            XCTAssertEqual(try canonical(written), try canonical(golden), name)
            XCTAssertEqual(MessageEncoder.encode(try MessageDecoder.decodeServerMessage(written)), written, name)
            XCTAssertEqual(MessageEncoder.encode(try MessageDecoder.decodeServerMessageThroughTree(written)), written, name)
        }
    }

    // MARK: - The echo transcripts, on a live session

    /// PROTOCOL.md's curl and websocat sessions on the echo scene, replayed: each golden
    /// client message gets the golden answer from the server itself.
    func testEchoTranscriptsAreWhatTheServerAnswers() throws {
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
        let store = SessionStore(registry: makeTestRegistry(),
                                 configuration: SessionStore.Configuration(gracePeriod: .seconds(30), maxSessions: 5,
                                                                           maxSessionsPerAddress: 3, strictBindingErrors: false),
                                 scheduler: scheduler, flushScheduler: scheduler)
        let transcripts = [
            [("client-event-editingChanged-api.json", "server-patch-echo-api.json"),
             ("client-event-touchUpInside-unknownTarget.json", "server-error-unknownTarget-api.json")],
            [("client-event-editingChanged-websocat.json", "server-patch-echo-websocat.json"),
             ("client-event-touchUpInside-label.json", "server-error-unknownEvent.json")],
        ]
        for transcript in transcripts {
            let session = try store.createSession(scene: "echo")
            for (question, answer) in transcript {
                let message = try MessageDecoder.decode(try text(question)).get()
                let reply = try XCTUnwrap(session.handle(message), question)
                XCTAssertEqual(try canonical(MessageEncoder.encode(reply)), try canonical(try text(answer)), "\(question) → \(answer)")
            }
        }
    }
}
