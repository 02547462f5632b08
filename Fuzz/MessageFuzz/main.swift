// libFuzzer target over Bindery's whole message path, in-process (no sockets):
// client bytes → WebSocket frames (FrameParser + MessageAssembler, as the server reads
// them) → JSON text → MessageDecoder → Session / SceneHost → control events on a demo
// scene → patches encoded back to JSON. Timers run in virtual time (HistoricalScheduler),
// so an input behaves the same on every run.
//
// Built by `make fuzz-message` as the MessageFuzz target of Fuzz/Package.swift (see
// docs/Fuzzing.md): the root package's products and the demo scenes, all instrumented for
// libFuzzer and AddressSanitizer.
//
// Input: byte 0 picks the scene (bits 0-2), the framing (bit 3: 0 = the rest is the raw
// client stream; 1 = the rest is lines, each sent as one masked text frame, or binary if
// it starts with 0x01 — so mutations work on JSON rather than on frame headers) and the
// read size (bits 4-7: 1...61 bytes per read).
//
// Checked on every input, besides AddressSanitizer's findings and Swift's traps:
// - each message with a `seq` gets exactly one answer carrying that `ack`; nothing else
//   carries it; a message without one gets no `ack`ed answer;
// - everything the server sends is valid JSON with a `type`;
// - after `bye` the client gets nothing more;
// - when the session has ended and the store is gone, the per-connection scene's view
//   controller is released (no retain cycle keeps a scene alive: unbounded growth).

import Bindery
import BinderyDemo
import Foundation
import HTTPServer
import RxCore
import RxWidgets

// libFuzzer calls the entry point from one thread only.
nonisolated(unsafe) private let registry: SceneRegistry = {
    let registry = SceneRegistry()
    registerDemoScenes(registry)
    return registry
}()
private let sceneNames = registry.scenes.map(\.name)

private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("fuzz invariant: \(message())") }
}

/// One masked client frame with a zero key (so the payload is readable in the corpus).
private func frame(opcode: UInt8, _ payload: ArraySlice<UInt8>) -> [UInt8] {
    var out: [UInt8] = [0x80 | opcode]
    if payload.count < 126 {
        out.append(0x80 | UInt8(payload.count))
    } else if payload.count <= 0xFFFF {
        out += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
    } else {
        out.append(0x80 | 127)
        for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8((payload.count >> shift) & 0xFF)) }
    }
    out += [0, 0, 0, 0]
    out += payload
    return out
}

/// The `ack` the server must answer `text` with (nil: none), and whether it is `bye`.
private func expectation(for text: String) -> (seq: Int?, isBye: Bool) {
    switch MessageDecoder.decode(text) {
    case .success(.event(let event)): return (event.seq, false)
    case .success(.resync(let seq)): return (seq, false)
    case .success(.bye): return (nil, true)
    case .success(.rows(let request)): return (request.seq, false)
    case .success(.upload(let upload)): return (upload.seq, false)
    case .failure(let failure): return (failure.seq, false)
    }
}

private func run(scene: String, stream: [UInt8], pieceSize: Int) {
    let scheduler = HistoricalScheduler()
    var store: SessionStore? = SessionStore(
        registry: registry,
        configuration: SessionStore.Configuration(gracePeriod: .seconds(30), maxEventsPerSecond: 50,
                                                  strictBindingErrors: false),
        scheduler: scheduler, flushScheduler: scheduler)
    guard let session = try? store!.createSession(scene: scene, clientAddress: "127.0.0.1") else {
        fatalError("demo scene '\(scene)' failed to build")
    }
    weak let controller = session.controller
    var emitted: [ServerMessage] = []
    let client = session.connect { emitted.append($0) }
    var assembler = MessageAssembler(maxFrameSize: 64 << 10, maxMessageSize: 64 << 10, requiresMasking: true)
    var closed = false
    var offset = 0

    func deliver(_ message: MessageAssembler.Message) {
        guard !closed else { return }
        emitted = []
        switch message {
        case .text(let text):
            let wasEnded = session.isEnded
            let expected = expectation(for: text)
            client.receive(text: text)
            if wasEnded {
                check(emitted.isEmpty, "a message after the session ended was answered: \(emitted)")
            } else if expected.isBye {
                check(session.isEnded, "bye did not end the session")
                check(emitted.contains(.bye(reason: "bye")), "bye was not answered with bye: \(emitted)")
            } else {
                let acked = emitted.filter { $0.ack != nil }
                if let seq = expected.seq {
                    check(acked.count == 1 && acked[0].ack == seq, "seq \(seq) answered by \(acked) for \(text)")
                } else {
                    check(acked.isEmpty, "no seq, yet acked answers \(acked) for \(text)")
                }
            }
        case .binary:
            client.receiveBinary()
        case .close:
            closed = true
        case .ping, .pong:
            break
        }
        for message in emitted {
            let json = MessageEncoder.encode(message)
            guard let value = try? JSONValue.parse(json), value["type"] != nil else {
                fatalError("fuzz invariant: the server sent invalid JSON: \(json)")
            }
        }
        // Some virtual time between messages: the scenes' timers (sign-in, load more) and the
        // coalesced flushes interleave with the client's messages.
        scheduler.advanceTo(scheduler.clock.addingTimeInterval(0.05))
    }

    stream.withUnsafeBytes { bytes in
        while offset < bytes.count, !closed {
            let end = min(bytes.count, offset + pieceSize)
            do throws(WebSocketError) {
                try assembler.receive(UnsafeRawBufferPointer(rebasing: bytes[offset..<end])) { deliver($0) }
            } catch {
                closed = true  // the server closes the connection with the error's code
            }
            offset = end
        }
    }
    client.disconnect()
    emitted = []
    scheduler.advanceTo(scheduler.clock.addingTimeInterval(120))  // past the grace period
    check(session.isEnded, "a session without connections outlived its grace period")
    store = nil
    if session.scene.sharing == .perConnection {
        check(controller == nil, "scene '\(scene)': the view controller outlived its session (retain cycle?)")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMessagePath(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let control = data[0]
    let scene = sceneNames[Int(control & 7) % sceneNames.count]
    let rest = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let pieceSize = Int(control >> 4) * 4 + 1
    var stream: [UInt8]
    if control & 8 == 0 {
        stream = rest
    } else {
        stream = []
        for line in rest.split(separator: 0x0A, omittingEmptySubsequences: false) {
            if line.first == 0x01 {
                stream += frame(opcode: 0x2, line.dropFirst())
            } else {
                stream += frame(opcode: 0x1, line)
            }
        }
    }
    run(scene: scene, stream: stream, pieceSize: pieceSize)
    return 0
}
