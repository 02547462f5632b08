// libFuzzer target for the one wire codec (Sources/BinderyProtocol): every input is read as
// a client message and as a server message. Whatever decodes must encode to JSON that
// decodes again and encodes to the same bytes (decoding may normalise once: a colour comes
// back as the string it was sent as, so the first encoding is the fixed point).
//
// Built by `make fuzz-codec` as the CodecFuzz target of Fuzz/Package.swift, against the
// Bindery product (see docs/Fuzzing.md).

import Bindery

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeBufferPointer(start: data, count: size)
    if case .success(let message) = MessageDecoder.decode(input) {
        let once = MessageEncoder.encode(message)
        guard case .success(let again) = MessageDecoder.decode(once) else {
            fatalError("a client message encoded to JSON that does not decode: \(once)")
        }
        let twice = MessageEncoder.encode(again)
        guard twice == once else { fatalError("a client message does not round-trip: \(once) then \(twice)") }
    }
    if let message = try? MessageDecoder.decodeServerMessage(utf8: Array(input)) {
        let once = MessageEncoder.encode(message)
        let again: ServerMessage
        do {
            again = try MessageDecoder.decodeServerMessage(once)
        } catch {
            fatalError("a server message encoded to JSON that does not decode (\(error)): \(once)")
        }
        let twice = MessageEncoder.encode(again)
        guard twice == once else { fatalError("a server message does not round-trip: \(once) then \(twice)") }
    }
    return 0
}
