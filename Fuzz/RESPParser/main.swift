// libFuzzer target for the RESP2 parser and encoder of the Redis module, built by
// `make fuzz-resp` as the RESPParserFuzz target of Fuzz/Package.swift (no connection is made).
//
// Input: byte 0 picks small or default limits and a piece size; the rest is the
// server's byte stream. Besides "no crash, no memory error, no hang", it checks that:
// the values and the error do not depend on how the stream is cut into reads (whole vs
// pieces of 1 to 32 bytes); each value respects the limits; each value, encoded again
// and parsed, is itself (the encoder and parser agree).

import Redis

private struct Outcome: Equatable {
    var values: [RESPValue] = []
    var error: RESPParserError?
}

private func parse(_ stream: UnsafeRawBufferPointer, pieceSize: Int, limits: RESPParser.Limits) -> Outcome {
    var parser = RESPParser(limits: limits)
    var outcome = Outcome()
    var offset = 0
    repeat {
        let end = min(stream.count, offset + pieceSize)
        parser.append(UnsafeRawBufferPointer(rebasing: stream[offset..<end]))
        do {
            while let value = try parser.next() { outcome.values.append(value) }
        } catch {
            outcome.error = error
            return outcome
        }
        offset = end
    } while offset < stream.count
    return outcome
}

private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("fuzz invariant: \(message())") }
}

private func checkLimits(_ value: RESPValue, _ limits: RESPParser.Limits, depth: Int) {
    switch value {
    case .bulkString(let bytes?):
        check(bytes.count <= limits.maxBulkStringLength, "bulk string over the limit")
    case .array(let elements?):
        check(depth < limits.maxDepth, "nesting over the limit")
        check(elements.count <= limits.maxArrayLength, "array over the limit")
        for element in elements { checkLimits(element, limits, depth: depth + 1) }
    default:
        break
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRESPParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let control = data[0]
    let stream = UnsafeRawBufferPointer(start: data + 1, count: size - 1)
    let limits = control & 1 == 0
        ? RESPParser.Limits(maxBulkStringLength: 64, maxArrayLength: 8, maxDepth: 4, maxLineLength: 32)
        : RESPParser.Limits()
    let pieceSize = Int(control >> 3) + 1  // 1...32

    let whole = parse(stream, pieceSize: max(1, stream.count), limits: limits)
    let pieces = parse(stream, pieceSize: pieceSize, limits: limits)
    check(whole == pieces, "whole \(whole) != pieces of \(pieceSize) \(pieces)")

    for value in whole.values {
        checkLimits(value, limits, depth: 0)
        var encoded: [UInt8] = []
        RESPEncoder.encode(value, into: &encoded)
        var parser = RESPParser()
        parser.append(contentsOf: encoded)
        do {
            let again = try parser.next()
            check(again == value, "re-encoded \(value) parsed as \(String(describing: again))")
            check(parser.isIdle, "re-encoded \(value) left bytes behind")
        } catch {
            fatalError("fuzz invariant: re-encoded \(value) failed to parse: \(error)")
        }
    }
    return 0
}
