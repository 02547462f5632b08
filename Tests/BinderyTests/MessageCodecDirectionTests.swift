@testable import Bindery
import Foundation
import RxWidgets
import XCTest

/// The codec's two new halves, case by case: client messages as the encoder writes them,
/// and what the server-message decoder refuses.
final class MessageCodecDirectionTests: XCTestCase {
    func testClientMessagesAreWrittenAsAClientSendsThem() {
        let cases: [(ClientMessage, String)] = [
            (.event(EventMessage(seq: 3, target: "t", event: "itemMoved", value: .strings(["a"]), row: "r",
                                 toSection: "s", toIndex: 2, action: 1)),
             #"{"type":"event","seq":3,"target":"t","event":"itemMoved","value":["a"],"row":"r","toSection":"s","toIndex":2,"action":1}"#),
            (.event(EventMessage(target: "b", event: "touchUpInside")), #"{"type":"event","target":"b","event":"touchUpInside"}"#),
            (.resync(seq: 10), #"{"type":"resync","seq":10}"#),
            (.resync(seq: nil), #"{"type":"resync"}"#),
            (.bye, #"{"type":"bye"}"#),
            (.rows(RowsRequest(seq: 12, target: "n", from: 0, to: 200)), #"{"type":"rows","seq":12,"target":"n","from":0,"to":200}"#),
            (.upload(UploadMessage(target: "p", upload: "u", step: .begin(name: "a", contentType: "text/plain", size: 5, last: false))),
             #"{"type":"uploadBegin","target":"p","upload":"u","name":"a","contentType":"text/plain","size":5,"last":false}"#),
            (.upload(UploadMessage(seq: 2, target: "p", upload: "u", step: .chunk(offset: 5, data: Data([0xFF, 0, 1])))),
             #"{"type":"uploadChunk","seq":2,"target":"p","upload":"u","offset":5,"data":"/wAB"}"#),
            (.upload(UploadMessage(seq: 3, target: "p", upload: "u", step: .end)), #"{"type":"uploadEnd","seq":3,"target":"p","upload":"u"}"#),
            (.upload(UploadMessage(target: "p", upload: nil, step: .cancel)), #"{"type":"uploadCancel","target":"p"}"#),
        ]
        for (message, json) in cases {
            XCTAssertEqual(MessageEncoder.encode(message), json)
            XCTAssertEqual(try MessageDecoder.decode(json).get(), message, json)
        }
    }

    func testTheServerDecoderSaysWhatIsWrong() {
        let cases: [(String, String)] = [
            ("{", "not valid JSON"),
            ("[]", "a message must be a JSON object"),
            (#"{"ack":1}"#, "a message needs 'type' (a string)"),
            (#"{"type":"dance"}"#, "unknown message type 'dance'"),
            (#"{"type":"patch","removed":[]}"#, "a message needs 'changes' (an array)"),
            (#"{"type":"patch","ack":1.5,"changes":[]}"#, "a message's 'ack' must be an integer"),
            (#"{"type":"patch","removed":[1],"changes":[]}"#, "'removed' must hold widget ids"),
            (#"{"type":"patch","changes":[{"target":"a","prop":"b"}]}"#, "a change needs a 'value' or 'ops'"),
            (#"{"type":"patch","changes":[{"target":"a","prop":"b","value":{}}]}"#, "never an object"),
            (#"{"type":"patch","changes":[{"target":"a","prop":"b","ops":[{"op":"spin"}]}]}"#, "unknown list operation 'spin'"),
            (#"{"type":"patch","changes":[{"target":"a","prop":"b","ops":[{"op":"remove","index":0}]}]}"#,
             "a list operation needs 'count' (an integer)"),
            (#"{"type":"patch","added":[{"id":"w","kind":"label"}],"changes":[]}"#, "widget 'w' needs 'props'"),
            (#"{"type":"error","code":"nope","message":"m"}"#, "unknown error code 'nope'"),
            (#"{"type":"bye"}"#, "a message needs 'reason' (a string)"),
            (#"{"type":"rows","target":"t","from":0,"count":1,"rows":[{"text":"x"}]}"#, "a row needs 'id' (a string)"),
            (#"{"type":"scene","protocol":2,"session":"s","scene":"s","title":"t","resumed":false,"widgets":[]}"#,
             "a scene of protocol 2"),
            (#"{"type":"scene","session":"s","scene":"s","title":"t","resumed":false,"widgets":[],"layout":{"stack":[]}}"#,
             "a layout item must be"),
            (#"{"type":"scene","session":"s","scene":"s","title":"t","resumed":false,"widgets":[],"layout":{"row":[],"alignment":"up"}}"#,
             "unknown alignment 'up'"),
        ]
        for (json, reason) in cases {
            XCTAssertThrowsError(try MessageDecoder.decodeServerMessage(json), json) { error in
                let failure = error as? MessageDecoder.ServerFailure
                XCTAssertTrue(failure?.reason.contains(reason) == true, "\(json): \(String(describing: failure))")
            }
        }
        XCTAssertThrowsError(try MessageDecoder.decodeWidgets(#"{"id":"w"}"#))
    }

    /// A scene read back is the scene: layout, description, `restored`, `ack`.
    func testASceneReadsBack() throws {
        var scene = SceneMessage(session: "s", scene: "calc", title: "Calc", resumed: true,
                                 widgets: [WidgetSnapshot(id: "d", kind: "label", properties: ["text": .string("0")])],
                                 layout: .column([.widget("d", caption: "Result"),
                                                  .grid([.widget("k1"), .widget("k2")], columns: 2, spacing: 8),
                                                  .row([.group("More", [.widget("k3")])], alignment: .center,
                                                       distribution: .fillEqually, spacing: 0.5)]),
                                 ack: 4, description: "A calculator")
        scene.restored = false
        XCTAssertEqual(try MessageDecoder.decodeServerMessage(MessageEncoder.encode(.scene(scene))), .scene(scene))
    }
}
