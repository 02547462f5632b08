@testable import Bindery
import RxWidgets
import XCTest

/// Seeded random messages of both directions through the one codec: what the encoder
/// writes, the decoder reads back to the same message (to what JSON can carry, for
/// server messages), and writes again to the same bytes, which is what lets a shared
/// scene's mirror re-send its owner's messages unchanged.
final class MessageRoundTripTests: XCTestCase {
    func testGeneratedClientMessagesRoundTrip() throws {
        var generator = MessageGenerator(seed: 0xB1D_E7)
        var kinds: Set<String> = []
        for index in 0..<400 {
            let message = generator.clientMessage()
            let encoded = MessageEncoder.encode(message)
            switch MessageDecoder.decode(encoded) {
            case .success(let decoded):
                XCTAssertEqual(decoded, message, "#\(index): \(encoded)")
                XCTAssertEqual(MessageEncoder.encodeUTF8(decoded), Array(encoded.utf8), "#\(index)")
            case .failure(let failure):
                XCTFail("#\(index): \(encoded): \(failure.error)")
            }
            kinds.insert(String(describing: message).prefix { $0 != "(" }.description)
        }
        XCTAssertEqual(kinds, ["event", "resync", "bye", "rows", "upload"])
    }

    func testGeneratedServerMessagesRoundTrip() throws {
        var generator = MessageGenerator(seed: 0x5EED)
        var types: Set<String> = []
        for index in 0..<400 {
            let message = generator.serverMessage(lossy: false)
            let encoded = MessageEncoder.encode(message)
            let decoded = try MessageDecoder.decodeServerMessage(encoded)
            XCTAssertEqual(decoded, message, "#\(index): \(encoded)")
            XCTAssertEqual(MessageEncoder.encode(decoded), encoded, "#\(index)")
            types.insert(message.type)
        }
        XCTAssertEqual(types, ["scene", "patch", "error", "bye", "rows"])
    }

    /// Colours and dates come back as strings, and encode to the same bytes.
    func testGeneratedServerMessagesWithColoursAndDatesEncodeToTheSameBytes() throws {
        var generator = MessageGenerator(seed: 0xC010_0125)
        for index in 0..<200 {
            let message = generator.serverMessage(lossy: true)
            let encoded = MessageEncoder.encodeUTF8(message)
            let decoded = try MessageDecoder.decodeServerMessage(utf8: encoded)
            XCTAssertEqual(decoded, asDecoded(message), "#\(index)")
            XCTAssertEqual(MessageEncoder.encodeUTF8(decoded), encoded, "#\(index)")
        }
    }

    /// Plain patches take the tree-free path and read as the tree reads them; other
    /// patches are left to the tree.
    func testGeneratedPatchesTakeThePathTheirShapeCalls() throws {
        var generator = MessageGenerator(seed: 0x9A7C)
        var plain = 0
        for index in 0..<300 {
            let patch = index % 2 == 0 ? generator.plainPatch() : generator.patch(lossy: false)
            let encoded = MessageEncoder.encode(.patch(patch))
            let tree = try MessageDecoder.decodeServerMessageThroughTree(encoded)
            XCTAssertEqual(tree, .patch(patch), "#\(index): \(encoded)")
            let isPlain = patch.removed.isEmpty && patch.added.isEmpty && patch.changes.allSatisfy {
                switch $0.update {
                case .value(.null), .value(.bool), .value(.number), .value(.string): return true
                default: return false
                }
            }
            if isPlain {
                plain += 1
                XCTAssertEqual(MessageDecoder.decodePlainPatch(encoded).map(ServerMessage.patch), tree, "#\(index): \(encoded)")
            } else {
                XCTAssertNil(MessageDecoder.decodePlainPatch(encoded), "#\(index): \(encoded)")
            }
        }
        XCTAssertGreaterThan(plain, 150)
    }

    /// Generated widget snapshots, as a shared scene stores them and a compacted journal
    /// keeps them.
    func testGeneratedWidgetSnapshotsRoundTrip() throws {
        var generator = MessageGenerator(seed: 0x3146)
        for index in 0..<100 {
            let widgets = (0..<index % 6).map { _ in generator.widget(lossy: index % 3 == 0) }
            let encoded = MessageEncoder.encodeWidgets(widgets)
            let decoded = try MessageDecoder.decodeWidgets(encoded)
            XCTAssertEqual(MessageEncoder.encodeWidgets(decoded), encoded, "#\(index)")
            guard case .patch(let expected) = asDecoded(.patch(PatchMessage(added: widgets, changes: []))) else { return XCTFail() }
            XCTAssertEqual(decoded, expected.added, "#\(index)")
        }
    }
}
