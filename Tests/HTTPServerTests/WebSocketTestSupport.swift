import EventLoop
@testable import HTTPServer
import XCTest

/// A client frame (masked unless `key` is nil), as bytes.
func wsClientFrame(_ opcode: WebSocketOpcode, fin: Bool = true, _ payload: [UInt8],
                   key: UInt32? = 0x3712_abcd) -> [UInt8] {
    let buffer = WriteBuffer()
    FrameWriter.appendFrame(opcode: opcode, fin: fin, payload: payload, maskingKey: key, to: buffer)
    return buffer.withUnsafeBytes { Array($0) }
}

/// A client text frame.
func wsClientFrame(_ opcode: WebSocketOpcode, fin: Bool = true, _ text: String, key: UInt32? = 0x3712_abcd) -> [UInt8] {
    wsClientFrame(opcode, fin: fin, Array(text.utf8), key: key)
}

/// The bytes of a `WriteBuffer`.
func wsBytes(_ buffer: WriteBuffer) -> [UInt8] {
    buffer.withUnsafeBytes { Array($0) }
}

/// Everything an assembler makes of `chunks`, fed in order: the messages, and the error
/// that stopped it, if any.
func wsAssemble(_ chunks: [[UInt8]], maxFrameSize: Int = 1 << 20, maxMessageSize: Int = 1 << 20,
                requiresMasking: Bool = true) -> (messages: [MessageAssembler.Message], error: WebSocketError?) {
    var assembler = MessageAssembler(maxFrameSize: maxFrameSize, maxMessageSize: maxMessageSize,
                                     requiresMasking: requiresMasking)
    var messages: [MessageAssembler.Message] = []
    do throws(WebSocketError) {
        for chunk in chunks {
            try assembler.receive(chunk) { message in messages.append(message) }
        }
    } catch {
        return (messages, error)
    }
    return (messages, nil)
}

/// `bytes` split into pieces of `size` bytes.
func wsSplit(_ bytes: [UInt8], every size: Int) -> [[UInt8]] {
    stride(from: 0, to: bytes.count, by: size).map { Array(bytes[$0..<min($0 + size, bytes.count)]) }
}

/// Lowercase hex.
func wsHex(_ bytes: [UInt8]) -> String {
    bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
}
