/// The header of one WebSocket frame (RFC 6455 §5.2).
public struct WebSocketFrameHeader: Equatable, Sendable {
    /// `true` on the last frame of a message (always on control frames).
    public var fin: Bool
    /// What the frame carries.
    public var opcode: WebSocketOpcode
    /// The masking key, the four key bytes read as a big-endian number (first byte most
    /// significant); nil for an unmasked frame.
    public var maskingKey: UInt32?
    /// The payload length in bytes.
    public var payloadLength: Int

    /// A header with the given fields.
    public init(fin: Bool, opcode: WebSocketOpcode, maskingKey: UInt32?, payloadLength: Int) {
        self.fin = fin
        self.opcode = opcode
        self.maskingKey = maskingKey
        self.payloadLength = payloadLength
    }
}

/// A piece of a frame's payload as it arrived: still masked, pointing into the caller's
/// read buffer, so it is valid **only during the event callback**.
///
/// Unmask it straight into its destination with ``unmask(into:)`` or ``append(to:)``: the
/// payload is copied exactly once on its way from the socket to a message.
public struct MaskedPayload {
    /// The bytes as received (masked when ``maskingKey`` is not nil).
    public let bytes: UnsafeRawBufferPointer
    /// The frame's masking key (see ``WebSocketFrameHeader/maskingKey``).
    public let maskingKey: UInt32?
    /// Where `bytes` starts within the frame's payload (the mask repeats every 4 bytes).
    public let offset: Int

    /// A piece of payload.
    public init(bytes: UnsafeRawBufferPointer, maskingKey: UInt32?, offset: Int) {
        self.bytes = bytes
        self.maskingKey = maskingKey
        self.offset = offset
    }

    /// The number of bytes in this piece.
    public var count: Int { bytes.count }

    /// Writes the unmasked bytes (``count`` of them) to `destination`.
    public func unmask(into destination: UnsafeMutableRawPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        guard let key = maskingKey else {
            destination.copyMemory(from: source, byteCount: bytes.count)
            return
        }
        Self.unmask(source, count: bytes.count, key: key, phase: offset & 3, into: destination)
    }

    /// Appends the unmasked bytes to `array`.
    public func append(to array: inout [UInt8]) {
        let start = array.count
        let count = bytes.count
        guard count > 0 else { return }
        if array.capacity < start + count {
            array.reserveCapacity(max(start + count, array.capacity * 2))
        }
        array.append(contentsOf: repeatElement(0, count: count))
        array.withUnsafeMutableBytes { unmask(into: $0.baseAddress! + start) }
    }

    /// The unmasked bytes as a new array.
    public var unmasked: [UInt8] {
        [UInt8](unsafeUninitializedCapacity: bytes.count) { buffer, initialized in
            if let base = buffer.baseAddress { unmask(into: base) }
            initialized = bytes.count
        }
    }

    /// XORs `count` bytes from `source` with the key, starting `phase` bytes into it.
    /// Eight bytes at a time: the key pattern is laid out in memory order once.
    static func unmask(_ source: UnsafeRawPointer, count: Int, key: UInt32,
                       phase: Int, into destination: UnsafeMutableRawPointer) {
        let keyBytes = key.bigEndian  // in memory: the key bytes in wire order
        var pattern: UInt64 = 0
        withUnsafeBytes(of: keyBytes) { keyRaw in
            withUnsafeMutableBytes(of: &pattern) { patternRaw in
                for index in 0..<8 { patternRaw[index] = keyRaw[(phase + index) & 3] }
            }
        }
        var index = 0
        while index + 8 <= count {
            let word = (source + index).loadUnaligned(as: UInt64.self) ^ pattern
            (destination + index).storeBytes(of: word, as: UInt64.self)
            index += 8
        }
        withUnsafeBytes(of: pattern) { patternRaw in
            while index < count {
                let byte = source.load(fromByteOffset: index, as: UInt8.self) ^ patternRaw[index & 7]
                destination.storeBytes(of: byte, toByteOffset: index, as: UInt8.self)
                index += 1
            }
        }
    }
}

/// An incremental parser of WebSocket frames as a server receives them (RFC 6455 §5).
///
/// Feed it whatever the socket delivered, in pieces of any size; it reports each frame's
/// header, its payload in pieces (pointing into the bytes you passed, not copied), and the
/// frame's end. It keeps no payload itself: its state is a few dozen bytes, so an idle
/// connection costs nothing more.
///
/// It enforces everything that can be checked at the frame level, failing as early as
/// the offending byte arrives:
/// - client frames must be masked (``WebSocketError/unmaskedFrame``, 1002);
/// - RSV1–3 must be clear, as no extension is negotiated (1002);
/// - reserved opcodes are refused (1002);
/// - control frames have FIN set and at most 125 payload bytes (1002);
/// - 16- and 64-bit lengths use the minimal encoding and the 64-bit top bit is clear (1002);
/// - continuation frames only inside a fragmented message, text/binary frames only
///   outside one (1002);
/// - a frame over `maxFrameSize`, or a message whose frames add up to more than
///   `maxMessageSize`, fails as soon as the length is known (1009), before its payload
///   is read.
///
/// After an error the parser stays failed and throws the same error again. UTF-8 and
/// close payloads are checked a level up, by ``MessageAssembler``.
public struct FrameParser: Sendable {
    /// What the parser reports, in order: `frameStart`, zero or more `payload`, `frameEnd`.
    public enum Event {
        /// A frame's header is complete and valid.
        case frameStart(WebSocketFrameHeader)
        /// The next piece of the current frame's payload (never empty).
        case payload(MaskedPayload)
        /// The current frame's payload is complete.
        case frameEnd(WebSocketFrameHeader)
    }

    /// The largest frame payload accepted, in bytes.
    public let maxFrameSize: Int
    /// The largest message accepted (all fragments together), in bytes.
    public let maxMessageSize: Int
    /// `true` for a server: frames without the mask bit are refused.
    public let requiresMasking: Bool

    private enum Stage: UInt8, Sendable {
        case firstByte, secondByte, extendedLength, maskingKey, payload
    }

    private var stage = Stage.firstByte
    /// 126 or 127 while reading a 16- or 64-bit extended length.
    private var lengthMarker: UInt8 = 0
    /// Bytes still to read of the extended length or of the masking key.
    private var needed = 0
    private var length: UInt64 = 0
    private var isMasked = false
    private var key: UInt32 = 0
    private var header = WebSocketFrameHeader(fin: true, opcode: .continuation, maskingKey: nil, payloadLength: 0)
    private var payloadOffset = 0
    /// A fragmented data message is in progress (its first frame had no FIN).
    private var messageInProgress = false
    /// Payload bytes of the data message in progress so far (headers included as announced).
    private var messageSize = 0
    private var failure: WebSocketError?

    /// A parser with the given limits (1 MiB each by default) that, by default, requires
    /// masked frames as a server must.
    public init(maxFrameSize: Int = 1 << 20, maxMessageSize: Int = 1 << 20, requiresMasking: Bool = true) {
        self.maxFrameSize = maxFrameSize
        self.maxMessageSize = maxMessageSize
        self.requiresMasking = requiresMasking
    }

    /// `true` between frames (no header or payload half read).
    public var isAtFrameBoundary: Bool { stage == .firstByte }

    /// `true` while a fragmented data message has started and not finished.
    public var isInsideMessage: Bool { messageInProgress }

    /// Parses `bytes`, calling `onEvent` for each event. Everything in `bytes` is consumed;
    /// a frame cut short continues with the next call.
    ///
    /// - Throws: the ``WebSocketError`` that makes the stream invalid (also on later
    ///   calls), or whatever `onEvent` throws (which stops parsing, without failing the parser).
    public mutating func parse(_ bytes: UnsafeRawBufferPointer,
                               _ onEvent: (Event) throws(WebSocketError) -> Void) throws(WebSocketError) {
        if let failure { throw failure }
        guard let base = bytes.baseAddress else { return }
        let count = bytes.count
        var index = 0
        while index < count {
            switch stage {
            case .firstByte:
                try fail(onFirstByte(base.load(fromByteOffset: index, as: UInt8.self)))
                index += 1
            case .secondByte:
                try fail(onSecondByte(base.load(fromByteOffset: index, as: UInt8.self)))
                index += 1
                if stage == .payload { try beginPayload(onEvent) }
            case .extendedLength:
                length = length << 8 | UInt64(base.load(fromByteOffset: index, as: UInt8.self))
                index += 1
                needed -= 1
                if needed == 0 {
                    try fail(checkExtendedLength())
                    if stage == .payload { try beginPayload(onEvent) }
                }
            case .maskingKey:
                key = key << 8 | UInt32(base.load(fromByteOffset: index, as: UInt8.self))
                index += 1
                needed -= 1
                if needed == 0 {
                    stage = .payload
                    try beginPayload(onEvent)
                }
            case .payload:
                let take = min(count - index, header.payloadLength - payloadOffset)
                let piece = MaskedPayload(bytes: UnsafeRawBufferPointer(start: base + index, count: take),
                                          maskingKey: header.maskingKey, offset: payloadOffset)
                index += take
                payloadOffset += take
                try onEvent(.payload(piece))
                if payloadOffset == header.payloadLength {
                    stage = .firstByte
                    try onEvent(.frameEnd(header))
                }
            }
        }
    }

    /// Parses the bytes of an array (see ``parse(_:_:)-(UnsafeRawBufferPointer,_)``).
    public mutating func parse(_ bytes: [UInt8], _ onEvent: (Event) throws(WebSocketError) -> Void) throws(WebSocketError) {
        // withUnsafeBytes rethrows untyped errors: carry the typed one out by hand.
        var failure: WebSocketError?
        bytes.withUnsafeBytes { raw in
            do throws(WebSocketError) { try parse(raw, onEvent) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Records a validation failure (so later calls throw it too) and throws it.
    private mutating func fail(_ error: WebSocketError?) throws(WebSocketError) {
        guard let error else { return }
        failure = error
        throw error
    }

    private mutating func onFirstByte(_ byte: UInt8) -> WebSocketError? {
        let reserved = byte & 0x70
        if reserved != 0 { return .reservedBitsSet(reserved >> 4) }
        guard let opcode = WebSocketOpcode(rawValue: byte & 0x0F) else { return .reservedOpcode(byte & 0x0F) }
        let fin = byte & 0x80 != 0
        if opcode.isControl {
            if !fin { return .fragmentedControlFrame }
        } else if opcode == .continuation {
            if !messageInProgress { return .unexpectedContinuation }
        } else if messageInProgress {
            return .expectedContinuation(opcode)
        }
        header = WebSocketFrameHeader(fin: fin, opcode: opcode, maskingKey: nil, payloadLength: 0)
        stage = .secondByte
        return nil
    }

    private mutating func onSecondByte(_ byte: UInt8) -> WebSocketError? {
        isMasked = byte & 0x80 != 0
        if requiresMasking && !isMasked { return .unmaskedFrame }
        let length7 = byte & 0x7F
        if header.opcode.isControl && length7 > 125 { return .controlFrameTooLong }
        switch length7 {
        case 126:
            lengthMarker = 126
            length = 0
            needed = 2
            stage = .extendedLength
            return nil
        case 127:
            lengthMarker = 127
            length = 0
            needed = 8
            stage = .extendedLength
            return nil
        default:
            length = UInt64(length7)
            return acceptLength()
        }
    }

    private mutating func checkExtendedLength() -> WebSocketError? {
        if lengthMarker == 126 {
            if length < 126 { return .nonMinimalLength(length) }
        } else {
            if length & (1 << 63) != 0 { return .invalidLength }
            if length <= 0xFFFF { return .nonMinimalLength(length) }
        }
        return acceptLength()
    }

    /// The length is known: check the limits, then read the key (or start the payload).
    private mutating func acceptLength() -> WebSocketError? {
        if length > UInt64(maxFrameSize) { return .frameTooBig(length: length, limit: maxFrameSize) }
        let frameLength = Int(length)
        if !header.opcode.isControl {
            if header.opcode != .continuation { messageSize = 0 }
            if frameLength > maxMessageSize - messageSize { return .messageTooBig(limit: maxMessageSize) }
            messageSize += frameLength
            messageInProgress = !header.fin
            if header.fin { messageSize = 0 }
        }
        header.payloadLength = frameLength
        if isMasked {
            key = 0
            needed = 4
            stage = .maskingKey
        } else {
            stage = .payload
        }
        return nil
    }

    /// The header is complete: report it, and the frame's end at once when it has no payload.
    private mutating func beginPayload(_ onEvent: (Event) throws(WebSocketError) -> Void) throws(WebSocketError) {
        header.maskingKey = isMasked ? key : nil
        payloadOffset = 0
        if header.payloadLength == 0 {
            stage = .firstByte
            try onEvent(.frameStart(header))
            try onEvent(.frameEnd(header))
        } else {
            try onEvent(.frameStart(header))
        }
    }
}
