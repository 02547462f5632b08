import Bindery
import BinderyProtocol
import XCTest

final class JSONParserTests: XCTestCase {
    private func parse(_ text: String) throws -> JSONValue {
        try JSONValue.parse(text)
    }

    private func assertRejects(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try JSONValue.parse(text), "accepted \(text.debugDescription)", file: file, line: line)
    }

    /// The eight-bytes-at-a-time scan stops exactly where the byte-by-byte one would:
    /// every byte value, at every position of a word of plain bytes.
    func testTheWordScanFindsExactlyTheBytesAStringStopsAt() {
        for position in 0..<8 {
            for byte in 0...255 {
                var word: UInt64 = 0x6161_6161_6161_6161  // "aaaaaaaa"
                word &= ~(UInt64(0xFF) << (8 * UInt64(position)))
                word |= UInt64(byte) << (8 * UInt64(position))
                let special = byte < 0x20 || byte >= 0x80 || byte == 0x22 || byte == 0x5C
                XCTAssertEqual(JSONParser.hasSpecialByte(word), special, "byte \(byte) at \(position)")
            }
        }
    }

    func testLongStringsWithAnEscapeOrANonASCIIByteAfterThePlainWords() throws {
        XCTAssertEqual(try parse(#""abcdefghijklmnop\"q""#), .string("abcdefghijklmnop\"q"))
        XCTAssertEqual(try parse(#""abcdefghijklmnopé""#), .string("abcdefghijklmnopé"))
        XCTAssertEqual(try parse(#""abcdefgh""#), .string("abcdefgh"))
        assertRejects("\"abcdefghijklmnop\u{01}\"")
    }

    func testScalars() throws {
        XCTAssertEqual(try parse("null"), .null)
        XCTAssertEqual(try parse(" true "), .bool(true))
        XCTAssertEqual(try parse("false"), .bool(false))
        XCTAssertEqual(try parse("0"), .number(0))
        XCTAssertEqual(try parse("-12"), .number(-12))
        XCTAssertEqual(try parse("0.25"), .number(0.25))
        XCTAssertEqual(try parse("1e3"), .number(1000))
        XCTAssertEqual(try parse("-1.5E-2"), .number(-0.015))
        XCTAssertEqual(try parse("123456789012345678901"), .number(1.2345678901234568e20))
        XCTAssertEqual(try parse("\"hi\""), .string("hi"))
    }

    func testStringsWithEscapesAndUnicode() throws {
        XCTAssertEqual(try parse(#""a\"b\\c\/d\b\f\n\r\t""#), .string("a\"b\\c/d\u{08}\u{0C}\n\r\t"))
        XCTAssertEqual(try parse(#""\u00e9\u20AC""#), .string("é€"))
        XCTAssertEqual(try parse(#""\ud83d\ude00""#), .string("😀"))
        XCTAssertEqual(try parse("\"한글 😀\""), .string("한글 😀"))
    }

    func testStructures() throws {
        let value = try parse(#"{"a":[1,{"b":null}],"c":"d"}"#)
        XCTAssertEqual(value["a"]?[0], .number(1))
        XCTAssertEqual(value["a"]?[1]?["b"], .null)
        XCTAssertEqual(value["c"]?.stringValue, "d")
        XCTAssertEqual(try parse("[]"), .array([]))
        XCTAssertEqual(try parse("{}"), .object([]))
        XCTAssertEqual(try parse(" [ 1 , 2 ] "), .array([.number(1), .number(2)]))
    }

    func testRejectsMalformedJSON() {
        for text in ["", " ", "{", "}", "[1,]", "{\"a\":1,}", "{'a':1}", "{a:1}", "01", "1.", ".5", "-", "+1", "1e",
                     "NaN", "Infinity", "tru", "nul", "truex", "[1 2]", "{\"a\" 1}", "\"abc", "\"\\x\"", "\"\\u12\"",
                     "\"a\u{01}b\"", "\"\\ud800\"", "\"\\udc00\"", "\"\\ud800\\u0041\"", "1 2", "{\"a\":1}x",
                     "// c\n1", "{\"a\":1,\"a\":2}", "1e400"] {
            assertRejects(text)
        }
    }

    func testRejectsInvalidUTF8() {
        XCTAssertThrowsError(try JSONValue.parse([0x22, 0xC3, 0x28, 0x22]))
        XCTAssertThrowsError(try JSONValue.parse([0x22, 0xED, 0xA0, 0x80, 0x22]))  // encoded surrogate
        XCTAssertThrowsError(try JSONValue.parse([0xFF]))
    }

    func testDepthLimit() {
        let deep = String(repeating: "[", count: JSONParser.maxDepth + 1) + String(repeating: "]", count: JSONParser.maxDepth + 1)
        XCTAssertThrowsError(try JSONValue.parse(deep))
        let ok = String(repeating: "[", count: JSONParser.maxDepth) + String(repeating: "]", count: JSONParser.maxDepth)
        XCTAssertNoThrow(try JSONValue.parse(ok))
    }

    func testErrorsCarryAnOffset() {
        do {
            _ = try JSONValue.parse("[1,,2]")
            XCTFail("accepted")
        } catch {
            XCTAssertEqual(error.offset, 3)
        }
    }

    func testWriterRoundTrips() throws {
        let texts = [#"{"a":[1,2.5,-3,true,false,null],"b":"x\"y\\z\n\u0001é"}"#, "[]", "{}", #""😀""#, "1e-07", "0.1"]
        for text in texts {
            let value = try parse(text)
            XCTAssertEqual(try parse(value.jsonText), value, text)
        }
        XCTAssertEqual(JSONValue.number(2).jsonText, "2")
        XCTAssertEqual(JSONValue.number(0.5).jsonText, "0.5")
        XCTAssertEqual(JSONValue.number(.nan).jsonText, "null")
        XCTAssertEqual(JSONValue.string("a\u{1F}b").jsonText, #""a\u001fb""#)
    }

    /// The writer's eight-bytes-at-a-time scan escapes exactly what the byte-by-byte rule
    /// does: every ASCII byte and a two-byte character, at every position of strings
    /// long enough to span several words, written as the rule says and read back.
    func testWriterEscapesEveryByteAtEveryPosition() throws {
        func expected(_ scalar: Unicode.Scalar) -> String {
            switch scalar {
            case "\"": return "\\\""
            case "\\": return "\\\\"
            case "\n": return "\\n"
            case "\r": return "\\r"
            case "\t": return "\\t"
            case "\u{08}": return "\\b"
            case "\u{0C}": return "\\f"
            case _ where scalar.value < 0x20: return "\\u00" + String(format: "%02x", scalar.value)
            default: return String(scalar)
            }
        }
        let scalars = (0..<0x80).map { Unicode.Scalar(UInt8($0)) } + ["é"]
        for length in [7, 8, 9, 17, 24] {
            for position in 0..<length {
                for scalar in scalars {
                    var plain = String(repeating: "a", count: length)
                    let at = plain.index(plain.startIndex, offsetBy: position)
                    plain.replaceSubrange(at...at, with: String(scalar))
                    let escaped = plain.unicodeScalars.map(expected).joined()
                    let json = JSONValue.string(plain).jsonText
                    XCTAssertEqual(json, "\"\(escaped)\"", "\(scalar.value) at \(position) of \(length)")
                    XCTAssertEqual(try parse(json), .string(plain))
                }
            }
        }
        // Two escapes in one word, and one right after a clean word.
        XCTAssertEqual(JSONValue.string("ab\"c\\defghij\n").jsonText, #""ab\"c\\defghij\n""#)
    }

    /// A cheap deterministic fuzz: random byte mutations of valid messages never crash,
    /// and whatever parses re-encodes to something that parses to the same value.
    func testMutationsNeverCrash() {
        let seeds = [#"{"type":"event","seq":1,"target":"input","event":"editingChanged","value":"héllo"}"#,
                     #"[{"a":[1,2,{"b":"\u00e9"}]},null,true,-0.5e3]"#]
        var generator = SplitMix(seed: 42)
        for seed in seeds {
            let bytes = Array(seed.utf8)
            for _ in 0..<3000 {
                var mutated = bytes
                for _ in 0..<Int(generator.next() % 4 + 1) {
                    let index = Int(generator.next() % UInt64(mutated.count))
                    switch generator.next() % 3 {
                    case 0: mutated[index] = UInt8(truncatingIfNeeded: generator.next())
                    case 1: mutated.remove(at: index)
                    default: mutated.insert(UInt8(truncatingIfNeeded: generator.next()), at: index)
                    }
                    if mutated.isEmpty { mutated = [0x20] }
                }
                if let value = try? JSONValue.parse(mutated) {
                    XCTAssertEqual(try? JSONValue.parse(value.jsonText), value)
                }
                _ = mutated.withUnsafeBufferPointer { MessageDecoder.decode($0) }
            }
        }
    }
}

/// A small deterministic PRNG for the tests' fuzzing.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
