import LoopTestSupport
import EventLoop
import Foundation
import XCTest

final class TCPConnectionTests: XCTestCase {
    /// What the echo server saw, recorded on the loop thread.
    private final class EchoLog: @unchecked Sendable {
        let events = Recorder<String>()
        let closed = Gate()
        let lock = NSLock()
        var writesIssued = 0
        var writesSucceeded = 0
        var bytesRead = 0
        var largestRead = 0
        var readsOffLoop = 0
    }

    /// A server that echoes every byte; at end of stream it shuts down its side once the
    /// echo is flushed (so nothing queued is lost), then closes.
    private func startEchoServer(_ runner: LoopThread, log: EchoLog) throws -> LoopBox<TCPListener?> {
        let loop = runner.loop
        let listener = LoopBox<TCPListener?>(nil)
        try runner.sync {
            listener.value = try TCPListener(loop: loop, host: "127.0.0.1", port: 0) { connection in
                try? connection.setNoDelay(true)
                try? connection.startReading { event in
                    switch event {
                    case .bytes(let bytes):
                        log.lock.lock()
                        log.bytesRead += bytes.count
                        log.largestRead = max(log.largestRead, bytes.count)
                        if !loop.isLoopThread { log.readsOffLoop += 1 }
                        log.writesIssued += 1
                        log.lock.unlock()
                        // The bytes are only valid now: copy them into a buffer the write owns.
                        try? connection.write(WriteBuffer(bytes)) { error in
                            log.lock.lock()
                            if error == nil { log.writesSucceeded += 1 }
                            log.lock.unlock()
                        }
                    case .eof:
                        log.events.append("eof")
                        try? connection.shutdown { error in
                            log.events.append("shutdown \(error.map(\.name) ?? "ok"), queue \(connection.writeQueueSize)")
                            connection.close {
                                log.events.append("closed")
                                log.closed.open()
                            }
                        }
                    case .error(let error):
                        log.events.append("error \(error.name)")
                        connection.close { log.closed.open() }
                    }
                }
            }
        }
        return listener
    }

    func testAFastSenderYieldsTheLoopAfterEachFullBuffer() throws {
        let runner = try LoopThread()
        defer { runner.stop() }
        let loop = runner.loop
        // Loop-thread state: full reads seen, and whether a loop turn passed between two.
        final class Turns: @unchecked Sendable {
            var fullReads = 0
            var backToBack = 0
            var turnPassed = true
            var total = 0
            let done = Gate()
        }
        let turns = Turns()
        let size = 4 << 20
        let listener = LoopBox<TCPListener?>(nil)
        try runner.sync {
            listener.value = try TCPListener(loop: loop, host: "127.0.0.1", port: 0) { connection in
                var first = true
                try? connection.startReading { event in
                    guard case .bytes(let bytes) = event else { return }
                    if first {
                        // Let the kernel queue up data, so later reads fill the buffer.
                        first = false
                        usleep(200_000)
                    }
                    turns.total += bytes.count
                    if bytes.count == EventLoop.readBufferSize {
                        turns.fullReads += 1
                        if !turns.turnPassed { turns.backToBack += 1 }
                        turns.turnPassed = false
                        loop.scheduleTimer(after: .zero) { turns.turnPassed = true }
                    }
                    if turns.total == size { turns.done.open() }
                }
            }
        }
        let port = try runner.sync { listener.value!.port }
        let client = try TestClient(port: port)
        try client.send([UInt8](repeating: 0x61, count: size))
        XCTAssertTrue(turns.done.wait(), "the server did not read everything")
        let (fullReads, backToBack) = try runner.sync { (turns.fullReads, turns.backToBack) }
        XCTAssertGreaterThan(fullReads, 4, "no backlog built up: nothing was tested")
        XCTAssertEqual(backToBack, 0, "a full read followed another within one loop turn")
    }

    func testEchoOfOneMebibyteArrivesIntactAndPeerCloseIsSeenAsEOF() throws {
        let runner = try LoopThread()
        defer { runner.stop() }
        let log = EchoLog()
        let listener = try startEchoServer(runner, log: log)
        let port = try runner.sync { listener.value!.port }

        // Pseudo-random (xorshift), so a dropped, repeated or reordered chunk shows.
        var state: UInt32 = 0x9E37_79B9
        let payload = [UInt8](unsafeUninitializedCapacity: 1 << 20) { buffer, count in
            for index in buffer.indices {
                state ^= state << 13
                state ^= state >> 17
                state ^= state << 5
                buffer[index] = UInt8(truncatingIfNeeded: state)
            }
            count = buffer.count
        }
        let client = try TestClient(port: port)
        let sendFailed = Recorder<String>()
        // Send from another thread while this one reads, as a real peer would.
        Thread {
            do { try client.send(payload) } catch { sendFailed.append("\(error)") }
            client.shutdownWrite()
        }.start()
        let echoed = try client.receiveUntilEOF()

        XCTAssertEqual(sendFailed.values, [])
        XCTAssertEqual(echoed.count, payload.count)
        XCTAssertTrue(echoed == payload, "echoed bytes differ from those sent")
        XCTAssertTrue(log.closed.wait())
        XCTAssertEqual(log.events.values, ["eof", "shutdown ok, queue 0", "closed"])
        log.lock.lock()
        defer { log.lock.unlock() }
        XCTAssertEqual(log.bytesRead, payload.count)
        XCTAssertEqual(log.writesSucceeded, log.writesIssued, "every write completion ran, without error")
        XCTAssertLessThanOrEqual(log.largestRead, EventLoop.readBufferSize)
        XCTAssertEqual(log.readsOffLoop, 0)
        try runner.sync { listener.value!.close() }
    }

    func testSeveralBuffersGoOutInOneWriteWithOneCompletion() throws {
        let runner = try LoopThread()
        defer { runner.stop() }
        let loop = runner.loop
        let completions = Recorder<String>()
        let listener = LoopBox<TCPListener?>(nil)
        let port = try runner.sync { () -> Int in
            let server = try TCPListener(loop: loop, host: "127.0.0.1", port: 0) { connection in
                let header = WriteBuffer("HTTP/1.1 200 OK\r\n")
                let empty = WriteBuffer()
                let body = WriteBuffer(capacity: 8)
                body.append(contentsOf: Array("\r\nhello".utf8))
                body.append(UInt8(ascii: "!"))
                do {
                    try connection.write([header, empty, body]) { error in
                        completions.append(error.map(\.name) ?? "ok")
                        connection.close()
                    }
                } catch {
                    completions.append("threw \(error)")
                }
            }
            listener.value = server
            return server.port
        }
        let client = try TestClient(port: port)
        XCTAssertEqual(String(decoding: try client.receiveUntilEOF(), as: UTF8.self), "HTTP/1.1 200 OK\r\n\r\nhello!")
        XCTAssertEqual(completions.values, ["ok"])
        try runner.sync { listener.value!.close() }
    }

    /// `tryWrite` takes what the kernel takes now and never queues: a buffer larger than
    /// the socket's goes out in part, a try while a write is queued takes nothing (so
    /// bytes cannot overtake it), and the rest written from the offset arrives in order.
    func testTryWriteTakesWhatTheKernelTakesAndTheRestFollowsInOrder() throws {
        let runner = try LoopThread()
        defer { runner.stop() }
        let loop = runner.loop
        let size = 16 << 20
        let pattern = (0..<size).map { UInt8($0 % 251) }
        let results = Recorder<String>()
        let listener = LoopBox<TCPListener?>(nil)
        let port = try runner.sync { () -> Int in
            let server = try TCPListener(loop: loop, host: "127.0.0.1", port: 0) { connection in
                do throws(UVError) {
                    let big = WriteBuffer(pattern)
                    let written = try connection.tryWrite(big)
                    results.append(written > 0 && written < size ? "partial" : "wrote \(written) of \(size)")
                    let marker = WriteBuffer("END")
                    try connection.write(big, from: written) { error in results.append("rest \(error.map(\.name) ?? "ok")") }
                    results.append("while queued: \(try connection.tryWrite(marker))")
                    try connection.write(marker) { _ in
                        try? connection.shutdown { _ in connection.close() }
                    }
                } catch {
                    results.append("threw \(error)")
                }
            }
            listener.value = server
            return server.port
        }
        let client = try TestClient(port: port)
        let received = try client.receiveUntilEOF()
        XCTAssertEqual(received.count, size + 3)
        XCTAssertTrue(received.prefix(size).elementsEqual(pattern), "bytes out of order or lost")
        XCTAssertEqual(String(decoding: received.suffix(3), as: UTF8.self), "END")
        XCTAssertEqual(results.values, ["partial", "while queued: 0", "rest ok"])
        try runner.sync { listener.value!.close() }
    }

    func testWriteQueueGrowsWhenThePeerDoesNotReadAndCloseCancelsPendingWrites() throws {
        let runner = try LoopThread()
        defer { runner.stop() }
        let loop = runner.loop
        let connectionBox = LoopBox<TCPConnection?>(nil)
        let accepted = Gate()
        let listener = LoopBox<TCPListener?>(nil)
        let port = try runner.sync { () -> Int in
            let server = try TCPListener(loop: loop, host: "127.0.0.1", port: 0) { connection in
                connectionBox.value = connection
                accepted.open()
            }
            listener.value = server
            return server.port
        }
        let client = try TestClient(port: port)
        XCTAssertTrue(accepted.wait())

        // 64 MiB (one 1 MiB buffer written 64 times: the connection holds it until each
        // write completes) is far more than the kernel buffers for a peer that does not read.
        let completions = Recorder<String>()
        let queued = try runner.sync { () -> Int in
            let chunk = WriteBuffer(repeatElement(UInt8(7), count: 1 << 20))
            for _ in 0..<64 {
                try connectionBox.value!.write(chunk) { error in completions.append(error.map(\.name) ?? "ok") }
            }
            return connectionBox.value!.writeQueueSize
        }
        XCTAssertGreaterThan(queued, 0, "writes did not back up")

        let closed = Gate()
        let afterClose = try runner.sync { () -> String in
            let connection = connectionBox.value!
            connection.close { closed.open() }
            do throws(UVError) {
                try connection.write([1, 2, 3])
                return "write after close did not throw"
            } catch {
                return "\(error.name), queue \(connection.writeQueueSize)"
            }
        }
        XCTAssertEqual(afterClose, "ECANCELED, queue 0")
        XCTAssertTrue(closed.wait())
        // Every write completed exactly once; those still queued were cancelled.
        XCTAssertEqual(completions.values.count, 64)
        XCTAssertTrue(completions.values.contains("ECANCELED"), "\(completions.values)")
        XCTAssertEqual(Set(completions.values).subtracting(["ok", "ECANCELED"]), [])
        _ = client
        try runner.sync {
            connectionBox.value = nil
            listener.value!.close()
        }
    }

    func testStopReadingPausesDeliveryUntilStartedAgain() throws {
        let runner = try LoopThread()
        defer { runner.stop() }
        let loop = runner.loop
        let received = Recorder<String>()
        let connectionBox = LoopBox<TCPConnection?>(nil)
        let listener = LoopBox<TCPListener?>(nil)
        let handler: @Sendable (TCPConnection.ReadEvent) -> Void = { event in
            if case .bytes(let bytes) = event {
                received.append(String(decoding: bytes, as: UTF8.self))
                connectionBox.value?.stopReading()
            }
        }
        let port = try runner.sync { () -> Int in
            let server = try TCPListener(loop: loop, host: "127.0.0.1", port: 0) { connection in
                connectionBox.value = connection
                try? connection.startReading(handler)
            }
            listener.value = server
            return server.port
        }
        let client = try TestClient(port: port)
        try client.send(Array("first".utf8))
        XCTAssertTrue(received.wait(for: 1))
        try client.send(Array("second".utf8))
        usleep(50_000)
        XCTAssertEqual(received.values, ["first"], "read while stopped")
        try runner.sync { try connectionBox.value!.startReading(handler) }
        XCTAssertTrue(received.wait(for: 2))
        XCTAssertEqual(received.values, ["first", "second"])
        try runner.sync {
            connectionBox.value!.close()
            connectionBox.value = nil
            listener.value!.close()
        }
    }

    func testAddressesOptionsAndReleaseAfterClose() throws {
        let runner = try LoopThread()
        defer { runner.stop() }
        let loop = runner.loop
        let released = WeakBox<TCPConnection>()
        let report = Recorder<String>()
        let listener = LoopBox<TCPListener?>(nil)
        let port = try runner.sync { () -> Int in
            let server = try TCPListener(loop: loop, host: "127.0.0.1", port: 0) { connection in
                released.value = connection
                var line = "local \(connection.localAddress?.description ?? "none")"
                line += ", peer \(connection.peerAddress?.host ?? "none")"
                do {
                    try connection.setNoDelay(true)
                    line += ", nodelay ok"
                } catch {
                    line += ", nodelay \(error)"
                }
                connection.close {
                    report.append(line + ", closed: peer \(connection.peerAddress?.host ?? "none")")
                }
            }
            listener.value = server
            return server.port
        }
        let client = try TestClient(port: port)
        XCTAssertTrue(report.wait(for: 1))
        XCTAssertEqual(report.values, ["local 127.0.0.1:\(port), peer 127.0.0.1, nodelay ok, closed: peer none"])
        XCTAssertTrue(eventually { released.value == nil }, "a closed TCPConnection leaked")
        _ = client
        try runner.sync { listener.value!.close() }
    }

    func testShutdownSendsEndOfStreamAfterQueuedWrites() throws {
        let runner = try LoopThread()
        defer { runner.stop() }
        let loop = runner.loop
        let events = Recorder<String>()
        let listener = LoopBox<TCPListener?>(nil)
        let port = try runner.sync { () -> Int in
            let server = try TCPListener(loop: loop, host: "127.0.0.1", port: 0) { connection in
                do {
                    try connection.write(WriteBuffer("bye")) { events.append("write \($0.map(\.name) ?? "ok")") }
                    try connection.shutdown { error in
                        events.append("shutdown \(error.map(\.name) ?? "ok")")
                        // Reading still works after our side is shut: wait for the peer's EOF.
                        try? connection.startReading { event in
                            if case .eof = event {
                                events.append("eof")
                                connection.close()
                            }
                        }
                    }
                    do {
                        try connection.shutdown()
                    } catch {
                        events.append("second shutdown threw")
                    }
                } catch {
                    events.append("threw \(error)")
                }
            }
            listener.value = server
            return server.port
        }
        let client = try TestClient(port: port)
        XCTAssertEqual(String(decoding: try client.receiveUntilEOF(), as: UTF8.self), "bye")
        client.shutdownWrite()
        XCTAssertTrue(events.wait(for: 4))
        XCTAssertEqual(events.values, ["second shutdown threw", "write ok", "shutdown ok", "eof"])
        try runner.sync { listener.value!.close() }
    }
}
