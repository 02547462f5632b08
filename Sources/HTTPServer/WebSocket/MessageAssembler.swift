/// Turns the bytes a client sends into whole WebSocket messages: frames parsed by a
/// ``FrameParser``, fragments reassembled, text validated as UTF-8, control frames
/// decoded. Pure (no sockets), so it is unit-tested and fuzzed on its own.
///
/// Checks on top of the parser's: text messages are valid UTF-8, failing fast within a
/// frame and across fragments (1007); close frames carry no payload or a valid code
/// (one byte, or a code that must not be sent, is 1002) and a UTF-8 reason (1007).
///
/// Memory: between messages it holds nothing but the parser state. A reassembly buffer
/// exists only while a message arrives in several pieces (several frames, or one frame
/// over several reads) and is released when the message is delivered. A single-frame
/// message that arrives in one read is unmasked straight into its `String` or array.
public struct MessageAssembler: Sendable {
    /// A complete message or control frame.
    public enum Message: Equatable, Sendable {
        /// A text message (valid UTF-8).
        case text(String)
        /// A binary message.
        case binary([UInt8])
        /// A ping with its payload (answer it with a pong carrying the same bytes).
        case ping([UInt8])
        /// A pong with its payload.
        case pong([UInt8])
        /// A close frame: its code (nil when the frame had no payload) and reason.
        case close(WebSocketCloseCode?, String)
    }

    /// The frame parser (its limits apply).
    public private(set) var parser: FrameParser

    private var header = WebSocketFrameHeader(fin: true, opcode: .continuation, maskingKey: nil, payloadLength: 0)
    /// Text or binary: the kind of the data message in progress.
    private var messageKind = WebSocketOpcode.binary
    private var buffer: [UInt8] = []
    private var control: [UInt8] = []
    private var validator = UTF8Validator()
    /// A single-frame message unmasked directly into its final form.
    private var ready: Message?

    /// An assembler over a parser with the given limits (see ``FrameParser``).
    public init(maxFrameSize: Int = 1 << 20, maxMessageSize: Int = 1 << 20, requiresMasking: Bool = true) {
        parser = FrameParser(maxFrameSize: maxFrameSize, maxMessageSize: maxMessageSize,
                             requiresMasking: requiresMasking)
    }

    /// Bytes held for a message in progress (0 between messages).
    public var bufferedBytes: Int { buffer.count + control.count }

    /// Consumes `bytes`, calling `onMessage` for every message completed by them.
    ///
    /// - Throws: the first ``WebSocketError`` in the stream (its ``WebSocketError/closeCode``
    ///   is what to close with), or what `onMessage` throws.
    public mutating func receive(_ bytes: UnsafeRawBufferPointer,
                                 _ onMessage: (Message) throws(WebSocketError) -> Void) throws(WebSocketError) {
        // The parser works on a copy (a few dozen bytes) so the callback may change self.
        var parser = self.parser
        defer { self.parser = parser }
        try parser.parse(bytes) { (event) throws(WebSocketError) in
            try handle(event, onMessage)
        }
    }

    /// Consumes `bytes` (see ``receive(_:_:)-(UnsafeRawBufferPointer,_)``).
    public mutating func receive(_ bytes: [UInt8],
                                 _ onMessage: (Message) throws(WebSocketError) -> Void) throws(WebSocketError) {
        // withUnsafeBytes rethrows untyped errors: carry the typed one out by hand.
        var failure: WebSocketError?
        bytes.withUnsafeBytes { raw in
            do throws(WebSocketError) { try receive(raw, onMessage) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    private mutating func handle(_ event: FrameParser.Event,
                                 _ onMessage: (Message) throws(WebSocketError) -> Void) throws(WebSocketError) {
        switch event {
        case .frameStart(let header):
            self.header = header
            if header.opcode.isControl {
                control = []
            } else if header.opcode != .continuation {
                messageKind = header.opcode
                validator.reset()
            }
            // A big frame: grow once, not by doubling through it.
            if !header.opcode.isControl && header.payloadLength >= 4096 {
                let needed = buffer.count + header.payloadLength
                if buffer.capacity < needed { buffer.reserveCapacity(max(needed, buffer.capacity * 2)) }
            }
        case .payload(let piece):
            if header.opcode.isControl {
                piece.append(to: &control)
            } else if header.fin && header.opcode != .continuation && piece.offset == 0
                        && piece.count == header.payloadLength {
                ready = try Self.whole(piece, kind: messageKind)
            } else {
                let start = buffer.count
                piece.append(to: &buffer)
                if messageKind == .text {
                    let valid = buffer.withUnsafeBytes { validator.validate(UnsafeRawBufferPointer(rebasing: $0[start...])) }
                    if !valid { throw WebSocketError.invalidUTF8 }
                }
            }
        case .frameEnd(let header):
            switch header.opcode {
            case .ping:
                let payload = control
                control = []
                try onMessage(.ping(payload))
            case .pong:
                let payload = control
                control = []
                try onMessage(.pong(payload))
            case .close:
                let payload = control
                control = []
                try onMessage(Self.decodeClose(payload))
            case .text, .binary, .continuation:
                guard header.fin else { return }
                let message: Message
                if let ready {
                    message = ready
                    self.ready = nil
                } else if messageKind == .text {
                    guard validator.isComplete else { throw WebSocketError.invalidUTF8 }
                    message = .text(String(decoding: buffer, as: UTF8.self))
                } else {
                    message = .binary(buffer)
                }
                buffer = []
                try onMessage(message)
            }
        }
    }

    /// A one-frame message whose payload arrived in one piece, unmasked into its final storage.
    private static func whole(_ piece: MaskedPayload, kind: WebSocketOpcode) throws(WebSocketError) -> Message {
        let count = piece.count
        if kind == .binary { return .binary(piece.unmasked) }
        var valid = true
        let text = String(unsafeUninitializedCapacity: count) { storage in
            piece.unmask(into: UnsafeMutableRawPointer(storage.baseAddress!))
            valid = UTF8Validator.isValid(UnsafeRawBufferPointer(storage))
            return valid ? count : 0
        }
        guard valid else { throw WebSocketError.invalidUTF8 }
        return .text(text)
    }

    /// A close frame's payload: empty, or a valid code and a UTF-8 reason.
    static func decodeClose(_ payload: [UInt8]) throws(WebSocketError) -> Message {
        if payload.isEmpty { return .close(nil, "") }
        guard payload.count >= 2 else { throw WebSocketError.truncatedCloseCode }
        let code = WebSocketCloseCode(UInt16(payload[0]) << 8 | UInt16(payload[1]))
        guard code.isValidOnWire else { throw WebSocketError.invalidCloseCode(code.rawValue) }
        let reason = payload[2...]
        guard reason.withUnsafeBytes({ UTF8Validator.isValid($0) }) else { throw WebSocketError.invalidCloseReason }
        return .close(code, String(decoding: reason, as: UTF8.self))
    }
}
