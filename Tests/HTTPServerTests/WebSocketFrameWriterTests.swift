import EventLoop
@testable import HTTPServer
import XCTest

final class WebSocketFrameWriterTests: XCTestCase {
    func testServerFramesAreUnmaskedWithMinimalLengths() {
        let buffer = WriteBuffer()
        FrameWriter.appendText("Hello", to: buffer)
        XCTAssertEqual(wsBytes(buffer), [0x81, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f])  // RFC 6455 §5.7
        for (length, header) in [(125, [0x82, 0x7D]), (126, [0x82, 0x7E, 0x00, 0x7E]), (65535, [0x82, 0x7E, 0xFF, 0xFF]),
                                 (65536, [0x82, 0x7F, 0, 0, 0, 0, 0, 1, 0, 0])] as [(Int, [UInt8])] {
            let frame = WriteBuffer()
            FrameWriter.appendFrame(opcode: .binary, payload: [UInt8](repeating: 1, count: length), to: frame)
            XCTAssertEqual(Array(wsBytes(frame).prefix(header.count)), header)
            XCTAssertEqual(frame.count, header.count + length)
        }
    }

    func testSeveralFramesBatchInOneBuffer() {
        let buffer = WriteBuffer()
        FrameWriter.appendText("a", to: buffer)
        FrameWriter.appendFrame(opcode: .pong, payload: [1, 2], to: buffer)
        FrameWriter.appendClose(code: .goingAway, reason: "bye", to: buffer)
        XCTAssertEqual(wsBytes(buffer), [0x81, 1, 0x61, 0x8A, 2, 1, 2, 0x88, 5, 0x03, 0xE9, 0x62, 0x79, 0x65])
    }

    func testMaskedFramesRoundTripThroughTheAssembler() {
        let buffer = WriteBuffer()
        let text = String(repeating: "κόσμε ", count: 5000)
        FrameWriter.appendFrame(opcode: .text, payload: Array(text.utf8), maskingKey: 0xDEAD_BEEF, to: buffer)
        XCTAssertEqual(Array(wsBytes(buffer).prefix(2)), [0x81, 0xFE])
        XCTAssertEqual(wsAssemble(wsSplit(wsBytes(buffer), every: 1337)).messages, [.text(text)])
    }

    func testClosePayloadFitsInAControlFrame() {
        XCTAssertEqual(FrameWriter.closePayload(code: nil, reason: "x"), [])
        XCTAssertEqual(FrameWriter.closePayload(code: .noStatusReceived, reason: ""), [])
        XCTAssertEqual(FrameWriter.closePayload(code: .abnormalClosure, reason: ""), [])
        let long = FrameWriter.closePayload(code: .protocolError, reason: String(repeating: "é", count: 100))
        XCTAssertEqual(long.count, 2 + 122)  // 61 two-byte characters: the 62nd would pass 123
        XCTAssertTrue(UTF8Validator.isValid(Array(long[2...])))
    }
}
