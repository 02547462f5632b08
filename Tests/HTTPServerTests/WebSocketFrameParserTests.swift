@testable import HTTPServer
import XCTest

final class WebSocketFrameParserTests: XCTestCase {
    /// Events as readable strings; payload pieces unmasked.
    private func events(_ bytes: [UInt8], chunk: Int = .max, requiresMasking: Bool = true,
                        maxFrameSize: Int = 1 << 20, maxMessageSize: Int = 1 << 20) -> ([String], WebSocketError?) {
        var parser = FrameParser(maxFrameSize: maxFrameSize, maxMessageSize: maxMessageSize,
                                 requiresMasking: requiresMasking)
        var log: [String] = []
        var payload: [UInt8] = []
        do throws(WebSocketError) {
            for piece in wsSplit(bytes, every: min(chunk, max(1, bytes.count))) {
                do {
                    try parser.parse(piece) { event in
                        switch event {
                        case .frameStart(let header):
                            log.append("start \(header.opcode) fin=\(header.fin) len=\(header.payloadLength)")
                        case .payload(let piece):
                            piece.append(to: &payload)
                        case .frameEnd:
                            log.append("end \(String(decoding: payload, as: UTF8.self))")
                            payload = []
                        }
                    }
                }
            }
        } catch {
            return (log, error)
        }
        return (log, nil)
    }

    // MARK: RFC 6455 §5.7 examples

    func testRFCSingleFrameUnmaskedText() {
        let (log, error) = events([0x81, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f], requiresMasking: false)
        XCTAssertNil(error)
        XCTAssertEqual(log, ["start text fin=true len=5", "end Hello"])
    }

    func testRFCSingleFrameMaskedText() {
        let bytes: [UInt8] = [0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58]
        for chunk in [1, 2, 3, 5, 11] {
            let (log, error) = events(bytes, chunk: chunk)
            XCTAssertNil(error)
            XCTAssertEqual(log, ["start text fin=true len=5", "end Hello"], "chunk \(chunk)")
        }
    }

    func testRFCFragmentedUnmaskedText() {
        let (log, error) = events([0x01, 0x03, 0x48, 0x65, 0x6c, 0x80, 0x02, 0x6c, 0x6f], requiresMasking: false)
        XCTAssertNil(error)
        XCTAssertEqual(log, ["start text fin=false len=3", "end Hel", "start continuation fin=true len=2", "end lo"])
    }

    func testRFCPingAndMaskedPong() {
        let ping = events([0x89, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f], requiresMasking: false)
        XCTAssertEqual(ping.0, ["start ping fin=true len=5", "end Hello"])
        let pong = events([0x8a, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58])
        XCTAssertEqual(pong.0, ["start pong fin=true len=5", "end Hello"])
    }

    func testRFC16And64BitLengths() {
        let two56 = [0x82, 0x7E, 0x01, 0x00] + [UInt8](repeating: 0x61, count: 256)
        XCTAssertEqual(events(two56, requiresMasking: false).0.first, "start binary fin=true len=256")
        let big = [0x82, 0x7F, 0, 0, 0, 0, 0, 1, 0, 0] + [UInt8](repeating: 0x61, count: 65536)
        let (log, error) = events(big, chunk: 1000, requiresMasking: false)
        XCTAssertNil(error)
        XCTAssertEqual(log.first, "start binary fin=true len=65536")
        XCTAssertEqual(log.count, 2)
    }

    func testEmptyFramesAndBoundaryLengths() {
        for length in [0, 1, 125, 126, 127, 65535, 65536] {
            let frame = wsClientFrame(.binary, [UInt8](repeating: 7, count: length))
            XCTAssertEqual(frame.count, FrameWriter.headerSize(payloadLength: length, masked: true) + length)
            let (log, error) = events(frame, chunk: 4093)
            XCTAssertNil(error, "length \(length)")
            XCTAssertEqual(log.first, "start binary fin=true len=\(length)")
            XCTAssertEqual(log.count, 2)
        }
    }

    // MARK: Protocol errors (1002)

    func testUnmaskedClientFrameIsRefused() {
        XCTAssertEqual(events([0x81, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f]).1, .unmaskedFrame)
        XCTAssertEqual(WebSocketError.unmaskedFrame.closeCode, .protocolError)
    }

    func testReservedBitsAndOpcodes() {
        for rsv: UInt8 in [0x10, 0x20, 0x40, 0x70] {
            XCTAssertEqual(events([0x81 | rsv, 0x80]).1, .reservedBitsSet(rsv >> 4))
        }
        for opcode: UInt8 in [3, 4, 5, 6, 7, 0xB, 0xC, 0xD, 0xE, 0xF] {
            let error = events([0x80 | opcode, 0x80, 0, 0, 0, 0]).1
            XCTAssertEqual(error, .reservedOpcode(opcode))
            XCTAssertEqual(error?.closeCode, .protocolError)
        }
    }

    func testControlFrameRules() {
        XCTAssertEqual(events(wsClientFrame(.ping, fin: false, [1])).1, .fragmentedControlFrame)
        XCTAssertEqual(events(wsClientFrame(.ping, [UInt8](repeating: 1, count: 126))).1, .controlFrameTooLong)
        XCTAssertEqual(events(wsClientFrame(.close, [UInt8](repeating: 1, count: 126))).1, .controlFrameTooLong)
        XCTAssertNil(events(wsClientFrame(.ping, [UInt8](repeating: 1, count: 125))).1)
    }

    func testLengthsMustBeMinimal() {
        XCTAssertEqual(events([0x82, 0xFE, 0x00, 0x7D]).1, .nonMinimalLength(125))
        XCTAssertEqual(events([0x82, 0xFF, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF]).1, .nonMinimalLength(65535))
        XCTAssertEqual(events([0x82, 0xFF, 0x80, 0, 0, 0, 0, 0, 0, 0]).1, .invalidLength)
    }

    func testFragmentationSequence() {
        XCTAssertEqual(events(wsClientFrame(.continuation, [1])).1, .unexpectedContinuation)
        let twoStarts = wsClientFrame(.text, fin: false, "a") + wsClientFrame(.binary, "b")
        XCTAssertEqual(events(twoStarts).1, .expectedContinuation(.binary))
        let interleavedPing = wsClientFrame(.text, fin: false, "a") + wsClientFrame(.ping, "p")
            + wsClientFrame(.continuation, "b")
        XCTAssertNil(events(interleavedPing).1)
    }

    // MARK: Limits (1009)

    func testFrameAndMessageLimitsFailBeforeThePayload() {
        // Only the header is fed: the limit is enforced as soon as the length is known.
        let header = Array(wsClientFrame(.binary, [UInt8](repeating: 0, count: 2000)).prefix(4))
        let frame = events(header, maxFrameSize: 1000)
        XCTAssertEqual(frame.1, .frameTooBig(length: 2000, limit: 1000))
        XCTAssertEqual(frame.1?.closeCode, .messageTooBig)
        let fragments = wsClientFrame(.binary, fin: false, [UInt8](repeating: 0, count: 600))
            + Array(wsClientFrame(.continuation, [UInt8](repeating: 0, count: 600)).prefix(4))
        let message = events(fragments, maxMessageSize: 1000)
        XCTAssertEqual(message.1, .messageTooBig(limit: 1000))
        XCTAssertEqual(message.1?.closeCode, .messageTooBig)
        // Exactly at the limit is fine.
        XCTAssertNil(events(wsClientFrame(.binary, [UInt8](repeating: 0, count: 1000)), maxFrameSize: 1000,
                            maxMessageSize: 1000).1)
    }

    func testFailureIsSticky() {
        var parser = FrameParser()
        let bad: [UInt8] = [0x83, 0x80]
        let good = wsClientFrame(.text, "x")
        for bytes in [bad, good] {
            var thrown: WebSocketError?
            do throws(WebSocketError) { try parser.parse(bytes) { _ in } } catch { thrown = error }
            XCTAssertEqual(thrown, .reservedOpcode(3))
        }
    }

    func testUnmaskEveryPhaseAndLength() {
        let clear = (0..<37).map { UInt8(truncatingIfNeeded: $0 * 29 + 3) }
        let key: UInt32 = 0xA1B2_C3D4
        let masked = wsClientFrame(.binary, clear, key: key).suffix(clear.count)
        for offset in 0..<clear.count {
            for count in 0...(clear.count - offset) {
                let piece = Array(masked[(masked.startIndex + offset)...].prefix(count))
                let unmasked = piece.withUnsafeBytes {
                    MaskedPayload(bytes: $0, maskingKey: key, offset: offset).unmasked
                }
                XCTAssertEqual(unmasked, Array(clear[offset..<(offset + count)]))
            }
        }
    }
}
