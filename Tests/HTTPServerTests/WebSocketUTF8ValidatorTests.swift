@testable import HTTPServer
import XCTest

final class WebSocketUTF8ValidatorTests: XCTestCase {
    func testValidStrings() {
        for text in ["", "Hello", "κόσμε", "日本語テキスト", "emoji 🎉🇰🇷", "\u{7F}\u{80}\u{7FF}\u{800}\u{FFFF}\u{10000}\u{10FFFF}",
                     String(repeating: "ascii fast path ", count: 20) + "é"] {
            XCTAssertTrue(UTF8Validator.isValid(Array(text.utf8)), text)
        }
    }

    func testInvalidSequences() {
        let invalid: [[UInt8]] = [
            [0x80],                    // lone continuation
            [0xBF],
            [0xC0, 0xAF],              // overlong '/'
            [0xC1, 0xBF],              // overlong
            [0xE0, 0x80, 0xAF],        // overlong 3-byte
            [0xF0, 0x80, 0x80, 0xAF],  // overlong 4-byte
            [0xED, 0xA0, 0x80],        // U+D800 surrogate
            [0xED, 0xBF, 0xBF],        // U+DFFF surrogate
            [0xF4, 0x90, 0x80, 0x80],  // U+110000
            [0xF5, 0x80, 0x80, 0x80],
            [0xFE], [0xFF],
            [0xC2, 0x41],              // continuation missing
            [0x61, 0xE2, 0x82],        // truncated at the end
        ]
        for bytes in invalid {
            XCTAssertFalse(UTF8Validator.isValid(bytes), wsHex(bytes))
        }
    }

    func testSplitAnywhereGivesTheSameAnswer() {
        let bytes = Array("aκόσμε🎉日本".utf8)
        for cut in 0...bytes.count {
            var validator = UTF8Validator()
            XCTAssertTrue(validator.validate(Array(bytes[..<cut])))
            XCTAssertTrue(validator.validate(Array(bytes[cut...])))
            XCTAssertTrue(validator.isComplete, "cut at \(cut)")
        }
        var validator = UTF8Validator()
        XCTAssertTrue(validator.validate([0xF0, 0x9F]))
        XCTAssertFalse(validator.isComplete)
    }

    /// Autobahn 6.4.x: the message must be refused at the first byte that cannot start a
    /// valid continuation, before the rest arrives.
    func testFailsFastOnTheFirstImpossibleByte() {
        let prefix = Array("κόσμε".utf8)
        var validator = UTF8Validator()
        XCTAssertTrue(validator.validate(prefix))
        XCTAssertTrue(validator.validate([0xED]))     // could still be U+D000–U+D7FF
        XCTAssertFalse(validator.validate([0xA0]))    // now a surrogate: fail here
        var other = UTF8Validator()
        XCTAssertTrue(other.validate([0xF4]))
        XCTAssertFalse(other.validate([0x90]))        // > U+10FFFF known from the second byte
    }

    func testEveryTwoByteLeadIsClassifiedLikeTheStandardLibrary() {
        for lead in 0...255 {
            for second in [0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0] {
                let bytes: [UInt8] = [UInt8(lead), UInt8(second), 0x80, 0x80]
                for length in 1...4 {
                    let slice = Array(bytes.prefix(length))
                    let expected = String(validating: slice, as: UTF8.self) != nil
                    XCTAssertEqual(UTF8Validator.isValid(slice), expected, wsHex(slice))
                }
            }
        }
    }
}
