import EventLoop

/// Encodes WebSocket frames (RFC 6455 §5.2) into a ``WriteBuffer``.
///
/// Frames are appended, so several (a turn's messages, a pong and a message) go out in
/// one write. A server's frames are unmasked; ``appendFrame(opcode:fin:payload:maskingKey:to:)``
/// takes a masking key for clients (tests, tools). The header and payload are written
/// straight into the buffer after one capacity check: no intermediate arrays.
public enum FrameWriter {
    /// The header size for a payload of `length` bytes (2, 4 or 10, plus 4 when masked).
    public static func headerSize(payloadLength length: Int, masked: Bool = false) -> Int {
        (length < 126 ? 2 : length <= 0xFFFF ? 4 : 10) + (masked ? 4 : 0)
    }

    /// Appends a frame header for a payload of `payloadLength` bytes.
    public static func appendHeader(opcode: WebSocketOpcode, fin: Bool = true, payloadLength: Int,
                                    maskingKey: UInt32? = nil, to buffer: WriteBuffer) {
        buffer.append((fin ? 0x80 : 0) | opcode.rawValue)
        let maskBit: UInt8 = maskingKey == nil ? 0 : 0x80
        if payloadLength < 126 {
            buffer.append(maskBit | UInt8(payloadLength))
        } else if payloadLength <= 0xFFFF {
            buffer.append(maskBit | 126)
            buffer.append(UInt8(payloadLength >> 8))
            buffer.append(UInt8(payloadLength & 0xFF))
        } else {
            buffer.append(maskBit | 127)
            let length = UInt64(payloadLength)
            for shift in stride(from: 56, through: 0, by: -8) {
                buffer.append(UInt8(truncatingIfNeeded: length >> UInt64(shift)))
            }
        }
        if let maskingKey {
            for shift in stride(from: 24, through: 0, by: -8) {
                buffer.append(UInt8(truncatingIfNeeded: maskingKey >> UInt32(shift)))
            }
        }
    }

    /// Appends one frame carrying `payload`, masked with `maskingKey` when one is given.
    public static func appendFrame(opcode: WebSocketOpcode, fin: Bool = true, payload: UnsafeRawBufferPointer,
                                   maskingKey: UInt32? = nil, to buffer: WriteBuffer) {
        let count = payload.count
        buffer.reserveCapacity(buffer.count + headerSize(payloadLength: count, masked: maskingKey != nil) + count)
        appendHeader(opcode: opcode, fin: fin, payloadLength: count, maskingKey: maskingKey, to: buffer)
        guard let maskingKey, let source = payload.baseAddress, count > 0 else {
            buffer.append(payload)
            return
        }
        // Masking is its own inverse: unmasking the clear bytes masks them.
        let masked = MaskedPayload(bytes: UnsafeRawBufferPointer(start: source, count: count),
                                   maskingKey: maskingKey, offset: 0).unmasked
        masked.withUnsafeBytes { buffer.append($0) }
    }

    /// Appends one frame carrying `payload`.
    public static func appendFrame(opcode: WebSocketOpcode, fin: Bool = true, payload: [UInt8],
                                   maskingKey: UInt32? = nil, to buffer: WriteBuffer) {
        payload.withUnsafeBytes { appendFrame(opcode: opcode, fin: fin, payload: $0, maskingKey: maskingKey, to: buffer) }
    }

    /// Appends one unfragmented text frame.
    public static func appendText(_ text: String, to buffer: WriteBuffer) {
        var text = text
        text.withUTF8 { appendFrame(opcode: .text, payload: UnsafeRawBufferPointer($0), to: buffer) }
    }

    /// Appends a close frame with `code` and `reason` (the reason is cut at a character
    /// boundary to fit the 125-byte control payload). Codes that must not be sent (1005,
    /// 1006, 1015) produce a close frame without payload.
    public static func appendClose(code: WebSocketCloseCode?, reason: String = "",
                                   maskingKey: UInt32? = nil, to buffer: WriteBuffer) {
        appendFrame(opcode: .close, payload: closePayload(code: code, reason: reason),
                    maskingKey: maskingKey, to: buffer)
    }

    /// The payload of a close frame: the code, big-endian, then as much of the reason as
    /// fits in 123 bytes without splitting a character.
    public static func closePayload(code: WebSocketCloseCode?, reason: String) -> [UInt8] {
        guard let code, code != .noStatusReceived, code != .abnormalClosure, code.rawValue != 1015 else { return [] }
        var payload: [UInt8] = [UInt8(code.rawValue >> 8), UInt8(code.rawValue & 0xFF)]
        var room = 123
        for character in reason {
            let utf8 = character.utf8
            guard utf8.count <= room else { break }
            payload.append(contentsOf: utf8)
            room -= utf8.count
        }
        return payload
    }
}
