@testable import HTTPServer
import XCTest

final class WebSocketMessageAssemblerTests: XCTestCase {
    func testSingleFramesInOneOrManyReads() {
        let stream = wsClientFrame(.text, "Hello, κόσμε") + wsClientFrame(.binary, [0, 1, 2, 255])
            + wsClientFrame(.text, "") + wsClientFrame(.binary, [])
        for chunk in [1, 3, 7, stream.count] {
            let (messages, error) = wsAssemble(wsSplit(stream, every: chunk))
            XCTAssertNil(error)
            XCTAssertEqual(messages, [.text("Hello, κόσμε"), .binary([0, 1, 2, 255]), .text(""), .binary([])], "chunk \(chunk)")
        }
    }

    func testFragmentsWithControlFramesBetween() {
        let text = Array("κόσμε".utf8)  // fragments cut inside characters
        let stream = wsClientFrame(.text, fin: false, Array(text[..<3])) + wsClientFrame(.ping, "p1")
            + wsClientFrame(.continuation, fin: false, Array(text[3..<6])) + wsClientFrame(.pong, "x")
            + wsClientFrame(.continuation, fin: false, []) + wsClientFrame(.continuation, Array(text[6...]))
        for chunk in [1, 5, stream.count] {
            let (messages, error) = wsAssemble(wsSplit(stream, every: chunk))
            XCTAssertNil(error)
            XCTAssertEqual(messages, [.ping(Array("p1".utf8)), .pong(Array("x".utf8)), .text("κόσμε")])
        }
    }

    func testInvalidUTF8FailsFastAcrossFragments() {
        // Autobahn 6.4.1: the first fragment already holds an impossible sequence; the
        // error must come before the final fragment is sent.
        let first = wsClientFrame(.text, fin: false, Array("κόσμε".utf8) + [0xED, 0xA0, 0x80])
        let (messages, error) = wsAssemble([first])
        XCTAssertEqual(messages, [])
        XCTAssertEqual(error, .invalidUTF8)
        XCTAssertEqual(error?.closeCode, .invalidFramePayloadData)
        // A character cut at the end of the message is only known bad at FIN.
        let truncated = wsClientFrame(.text, fin: false, "ok") + wsClientFrame(.continuation, [0xE2, 0x82])
        XCTAssertEqual(wsAssemble([truncated]).error, .invalidUTF8)
        XCTAssertEqual(wsAssemble([wsClientFrame(.text, [0xC0, 0xAF])]).error, .invalidUTF8)
        // Binary messages are not validated.
        XCTAssertEqual(wsAssemble([wsClientFrame(.binary, [0xC0, 0xAF])]).messages, [.binary([0xC0, 0xAF])])
    }

    func testCloseFramePayloads() {
        XCTAssertEqual(wsAssemble([wsClientFrame(.close, [])]).messages, [.close(nil, "")])
        XCTAssertEqual(wsAssemble([wsClientFrame(.close, [0x03])]).error, .truncatedCloseCode)
        XCTAssertEqual(wsAssemble([wsClientFrame(.close, [0x03, 0xE8] + Array("bye ✓".utf8))]).messages,
                       [.close(.normalClosure, "bye ✓")])
        let badReason = wsAssemble([wsClientFrame(.close, [0x03, 0xE8, 0xCE, 0xBA, 0xED, 0xA0, 0x80])]).error
        XCTAssertEqual(badReason, .invalidCloseReason)
        XCTAssertEqual(badReason?.closeCode, .invalidFramePayloadData)
    }

    /// Every class of close code: registered, reserved, never-on-the-wire, private, out of range.
    func testCloseCodeClasses() {
        let valid: [UInt16] = [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014,
                               3000, 3999, 4000, 4999]
        let invalid: [UInt16] = [0, 1, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535]
        for code in valid {
            let (messages, error) = wsAssemble([wsClientFrame(.close, [UInt8(code >> 8), UInt8(code & 0xFF)])])
            XCTAssertNil(error, "\(code)")
            XCTAssertEqual(messages, [.close(WebSocketCloseCode(code), "")])
        }
        for code in invalid {
            let error = wsAssemble([wsClientFrame(.close, [UInt8(code >> 8), UInt8(code & 0xFF)])]).error
            XCTAssertEqual(error, .invalidCloseCode(code))
            XCTAssertEqual(error?.closeCode, .protocolError)
        }
    }

    func testLargeFragmentedMessageAndLimits() {
        var stream: [UInt8] = []
        for index in 0..<1000 { stream += wsClientFrame(index == 0 ? .binary : .continuation, fin: index == 999, [UInt8(index & 0xFF)]) }
        let (messages, error) = wsAssemble(wsSplit(stream, every: 4096))
        XCTAssertNil(error)
        XCTAssertEqual(messages, [.binary((0..<1000).map { UInt8($0 & 0xFF) })])
        XCTAssertEqual(wsAssemble([stream], maxMessageSize: 999).error, .messageTooBig(limit: 999))
        XCTAssertEqual(wsAssemble([wsClientFrame(.text, String(repeating: "a", count: 2000))], maxFrameSize: 1999).error,
                       .frameTooBig(length: 2000, limit: 1999))
    }

    func testNoBufferIsHeldBetweenMessages() {
        var assembler = MessageAssembler()
        let frame = wsClientFrame(.text, String(repeating: "x", count: 5000))
        var count = 0
        do throws(WebSocketError) {
            for chunk in wsSplit(frame, every: 1000) { try assembler.receive(chunk) { _ in count += 1 } }
        } catch { XCTFail("\(error)") }
        XCTAssertEqual(count, 1)
        XCTAssertEqual(assembler.bufferedBytes, 0)
    }
}
