@testable import Redis
import LoopTestSupport
import XCTest

final class RESPParserTests: XCTestCase {
    /// One value of every RESP2 type, with its bytes.
    private let samples: [(String, RESPValue)] = [
        ("+OK\r\n", .simpleString("OK")),
        ("+\r\n", .simpleString("")),
        ("-ERR unknown command 'FOO'\r\n", .error("ERR unknown command 'FOO'")),
        (":0\r\n", .integer(0)),
        (":-42\r\n", .integer(-42)),
        (":9223372036854775807\r\n", .integer(.max)),
        (":-9223372036854775808\r\n", .integer(.min)),
        ("$5\r\nhello\r\n", .bulkString(Array("hello".utf8))),
        ("$0\r\n\r\n", .bulkString([])),
        ("$4\r\na\r\nb\r\n", .bulkString(Array("a\r\nb".utf8))),
        ("$-1\r\n", .bulkString(nil)),
        ("*0\r\n", .array([])),
        ("*-1\r\n", .array(nil)),
        ("*3\r\n:1\r\n$3\r\nfoo\r\n*2\r\n+a\r\n*-1\r\n",
         .array([.integer(1), .bulkString(Array("foo".utf8)), .array([.simpleString("a"), .array(nil)])])),
        ("*2\r\n*1\r\n*0\r\n$-1\r\n", .array([.array([.array([])]), .bulkString(nil)])),
    ]

    private func parseAll(_ chunks: [[UInt8]], limits: RESPParser.Limits = .init()) throws -> [RESPValue] {
        var parser = RESPParser(limits: limits)
        var values: [RESPValue] = []
        for chunk in chunks {
            parser.append(contentsOf: chunk)
            while let value = try parser.next() { values.append(value) }
        }
        return values
    }

    func testEveryTypeParses() throws {
        for (text, expected) in samples {
            XCTAssertEqual(try parseAll([Array(text.utf8)]), [expected], text.debugDescription)
        }
    }

    func testAStreamSplitAtEveryByteBoundaryGivesTheSameValues() throws {
        let stream = Array(samples.map(\.0).joined().utf8)
        let expected = samples.map(\.1)
        for split in 0...stream.count {
            XCTAssertEqual(try parseAll([Array(stream[..<split]), Array(stream[split...])]), expected, "split at \(split)")
        }
        XCTAssertEqual(try parseAll(stream.map { [$0] }), expected, "byte by byte")
    }

    func testNothingIsReturnedUntilAValueIsComplete() throws {
        var parser = RESPParser()
        parser.append(contentsOf: Array("*2\r\n$3\r\nfoo\r\n$3\r\nba".utf8))
        XCTAssertNil(try parser.next())
        XCTAssertFalse(parser.isIdle)
        parser.append(contentsOf: Array("r\r\n".utf8))
        XCTAssertEqual(try parser.next(), .array([.bulkString(Array("foo".utf8)), .bulkString(Array("bar".utf8))]))
        XCTAssertNil(try parser.next())
        XCTAssertTrue(parser.isIdle)
    }

    func testEncodedValuesParseBackToThemselves() throws {
        for (text, value) in samples {
            var bytes: [UInt8] = []
            RESPEncoder.encode(value, into: &bytes)
            XCTAssertEqual(String(decoding: bytes, as: UTF8.self), text)
            XCTAssertEqual(try parseAll([bytes]), [value])
        }
    }

    func testCommandsEncodeAsArraysOfBulkStrings() {
        var bytes: [UInt8] = []
        RESPEncoder.encodeCommand(["SET", "k", "héllo"], into: &bytes)
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$6\r\nhéllo\r\n")
        // Multi-digit counts and lengths, as strings and as bytes, parse back as sent.
        let long = (0..<12).map { String(repeating: "x", count: $0 * 11) }
        for encoded in [{ RESPEncoder.encodeCommand(long, into: &$0) },
                        { RESPEncoder.encodeCommand(long.map { Array($0.utf8) }, into: &$0) }] as [(inout [UInt8]) -> Void] {
            var command: [UInt8] = []
            encoded(&command)
            XCTAssertEqual(try? parseAll([command]), [.array(long.map { .bulkString(Array($0.utf8)) })])
        }
        bytes = []
        RESPEncoder.encodeCommand([[0, 13, 10], []], into: &bytes)
        XCTAssertEqual(bytes, Array("*2\r\n$3\r\n".utf8) + [0, 13, 10] + Array("\r\n$0\r\n\r\n".utf8))
    }

    func testLimitsAreCheckedBeforeTheDataArrives() {
        let limits = RESPParser.Limits(maxBulkStringLength: 10, maxArrayLength: 3, maxDepth: 2, maxLineLength: 8)
        let cases: [(String, RESPParserError)] = [
            ("$11\r\n", .bulkStringTooLong(length: 11, limit: 10)),
            ("*4\r\n", .arrayTooLong(count: 4, limit: 3)),
            ("*1\r\n*1\r\n*1\r\n", .nestingTooDeep(limit: 2)),
            ("+123456789", .lineTooLong(limit: 8)),
            (":123456789", .lineTooLong(limit: 8)),
        ]
        for (text, error) in cases {
            XCTAssertThrowsError(try parseAll([Array(text.utf8)], limits: limits), text.debugDescription) {
                XCTAssertEqual($0 as? RESPParserError, error, text.debugDescription)
            }
        }
        // At the limits exactly, all is well.
        XCTAssertEqual(try parseAll([Array("$10\r\n0123456789\r\n*3\r\n*1\r\n:1\r\n+12345678\r\n:1\r\n".utf8)], limits: limits),
                       [.bulkString(Array("0123456789".utf8)),
                        .array([.array([.integer(1)]), .simpleString("12345678"), .integer(1)])])
    }

    func testMalformedInputIsRejectedAndTheParserStaysFailed() {
        let cases: [(String, RESPParserError)] = [
            ("!oops\r\n", .invalidType(UInt8(ascii: "!"))),
            ("_\r\n", .invalidType(UInt8(ascii: "_"))),
            ("+OK\rX", .invalidLineEnding),
            (":12a\r\n", .invalidInteger),
            (":\r\n", .invalidInteger),
            (":-\r\n", .invalidInteger),
            (":9223372036854775808\r\n", .invalidInteger),
            ("$-2\r\n", .invalidLength(-2)),
            ("*-5\r\n", .invalidLength(-5)),
            ("$3\r\nfooXY", .invalidBulkTerminator),
            ("$ 3\r\nfoo\r\n", .invalidInteger),
        ]
        for (text, error) in cases {
            var parser = RESPParser()
            parser.append(contentsOf: Array(text.utf8))
            XCTAssertThrowsError(try parser.next(), text.debugDescription) {
                XCTAssertEqual($0 as? RESPParserError, error, text.debugDescription)
            }
            parser.append(contentsOf: Array("+OK\r\n".utf8))
            XCTAssertThrowsError(try parser.next(), "stays failed after \(text.debugDescription)")
        }
    }

    func testAHugeAnnouncedArrayDoesNotReserveItsLength() throws {
        var parser = RESPParser()
        parser.append(contentsOf: Array("*16777216\r\n:1\r\n".utf8))
        XCTAssertNil(try parser.next())  // waits for the rest without allocating 16M slots
    }

    func testScriptNamesAreTheSHA1RedisUses() {
        XCTAssertEqual(SHA1.hex([]), "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        XCTAssertEqual(SHA1.hex(Array("abc".utf8)), "a9993e364706816aba3e25717850c26c9cd0d89d")
        XCTAssertEqual(SHA1.hex(Array(String(repeating: "a", count: 1000).utf8)),
                       "291e9a6c66994949b57ba5e650361e98fc36b1ba")
        XCTAssertEqual(RedisScript("return 1").sha1, "e0e1f9fabfc9d4800c877a703b823ac0578ff8db")
    }
}
