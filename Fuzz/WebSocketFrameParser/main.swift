// libFuzzer target for the WebSocket frame parser and message assembler
// (Sources/HTTPServer/WebSocket/FrameParser.swift, MessageAssembler.swift, UTF8Validator.swift).
//
// Built by `make fuzz-ws` as the WebSocketFrameFuzz target of Fuzz/Package.swift, against
// the HTTPServer product (see docs/Fuzzing.md).
//
// Input: byte 0 picks the limits and the read sizes; the rest is the client's byte
// stream. Besides "no crash, no memory error", it checks that the result does not
// depend on how the stream is cut into reads: fed whole, and fed in pieces of 1 to 64
// bytes, the assembler must deliver the same messages and fail with the same error.

import HTTPServer

/// What an assembler made of a stream.
private struct Outcome: Equatable {
    var messages: [MessageAssembler.Message] = []
    var error: WebSocketError?
}

private func assemble(_ stream: UnsafeRawBufferPointer, pieceSize: Int, limits: Int, masking: Bool) -> Outcome {
    var assembler = MessageAssembler(maxFrameSize: limits, maxMessageSize: limits * 2, requiresMasking: masking)
    var outcome = Outcome()
    var offset = 0
    while offset < stream.count {
        let end = min(stream.count, offset + pieceSize)
        do throws(WebSocketError) {
            try assembler.receive(UnsafeRawBufferPointer(rebasing: stream[offset..<end])) { message in
                outcome.messages.append(message)
            }
        } catch {
            outcome.error = error
            return outcome
        }
        offset = end
    }
    return outcome
}

private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("fuzz invariant: \(message())") }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebSocketFrames(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let control = data[0]
    let stream = UnsafeRawBufferPointer(start: data + 1, count: size - 1)
    let limits = [125, 1024, 70_000, 1 << 20][Int(control & 3)]
    let masking = control & 4 == 0
    let pieceSize = Int(control >> 3) * 2 + 1  // 1...63

    let whole = assemble(stream, pieceSize: max(1, stream.count), limits: limits, masking: masking)
    let pieces = assemble(stream, pieceSize: pieceSize, limits: limits, masking: masking)
    check(whole == pieces, "whole \(whole) != pieces of \(pieceSize) \(pieces)")

    for message in whole.messages {
        switch message {
        case .text(let text):
            check(text.utf8.count <= limits * 2, "text over the message limit")
            check(UTF8Validator.isValid(Array(text.utf8)), "delivered text is not UTF-8")
        case .binary(let bytes):
            check(bytes.count <= limits * 2, "binary over the message limit")
        case .ping(let payload), .pong(let payload):
            check(payload.count <= 125, "control payload over 125")
        case .close(let code, let reason):
            check(code?.isValidOnWire ?? reason.isEmpty, "invalid close code delivered")
        }
    }
    return 0
}
