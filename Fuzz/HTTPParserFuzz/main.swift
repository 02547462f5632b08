// libFuzzer entry point for HTTPRequestParser.
//
// Built by `make fuzz-http` as the HTTPParserFuzz target of Fuzz/Package.swift, against
// the HTTPServer product (no sockets are opened).
//
// Each input is parsed three ways — all at once, byte by byte, and in pieces whose sizes
// come from the input's first byte — and the three must agree (events and error), so the
// fuzzer checks the incremental state machine, not only that it does not crash. (The
// error *kind*, i.e. the status, must agree; the message may name a different first
// problem found.)

import HTTPServer

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let limits = HTTPRequestParser.Limits(maxRequestLineLength: 256, maxHeaderBytes: 512, maxHeaderCount: 8,
                                          maxBodySize: 1024)
    let whole = run(bytes, pieceSize: bytes.count, limits: limits)
    let single = run(bytes, pieceSize: 1, limits: limits)
    let pieces = run(bytes, pieceSize: Int(bytes[0] % 17) + 2, limits: limits)
    guard whole.events == single.events, whole.events == pieces.events,
          whole.error?.kind == single.error?.kind, whole.error?.kind == pieces.error?.kind else {
        fatalError("incremental parsing disagrees: \(whole) vs \(single) vs \(pieces)")
    }
    for event in whole.events {
        if case .end(let body, _) = event, body.count > limits.maxBodySize {
            fatalError("body of \(body.count) bytes passed a limit of \(limits.maxBodySize)")
        }
        if case .head(let head) = event {
            if head.headers.count > limits.maxHeaderCount { fatalError("too many header fields passed") }
            if head.headers.contains("Transfer-Encoding") && head.headers.contains("Content-Length") {
                fatalError("ambiguous framing accepted")
            }
        }
    }
    return 0
}

private struct Outcome: CustomStringConvertible {
    var events: [HTTPRequestParser.Event] = []
    var error: HTTPParserError?
    var description: String { "\(events.count) events, error \(error.map(String.init(describing:)) ?? "none")" }
}

private func run(_ bytes: [UInt8], pieceSize: Int, limits: HTTPRequestParser.Limits) -> Outcome {
    var parser = HTTPRequestParser(limits: limits)
    var outcome = Outcome()
    var offset = 0
    while offset < bytes.count {
        let end = min(bytes.count, offset + pieceSize)
        parser.append(contentsOf: bytes[offset..<end])
        offset = end
        do {
            while let event = try parser.next() { outcome.events.append(event) }
        } catch {
            outcome.error = error
            return outcome
        }
    }
    return outcome
}
