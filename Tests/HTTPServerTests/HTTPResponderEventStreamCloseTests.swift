import EventLoop
import Foundation
import HTTPServer
import XCTest

/// A client leaving a Server-Sent Events stream ends it at once, through the connection's
/// EOF, with no write needed to find out (a quiet stream may not write for a long time).
final class HTTPResponderEventStreamCloseTests: XCTestCase {
    /// A stream that sends one comment and then nothing; records how and when it ended.
    private final class QuietStream: @unchecked Sendable {
        let closed = HTTPTestGate()
        let reason = HTTPTestBox<HTTPResponder.CloseReason?>(nil)
        let closedAt = HTTPTestBox<Date?>(nil)
        let writesAfterHello = HTTPTestBox(0)
        /// The handler's `startEventStream` result, for a start deferred by `delay`.
        let started = HTTPTestBox<Bool?>(nil)

        func route(_ router: Router, delay: Duration? = nil) {
            router.get("/quiet") { [self] _, responder in
                let start = { [self] in
                    started.value = responder.startEventStream()
                    responder.sendComment("hello")
                    responder.onClose = { [self] in
                        reason.value = $0
                        closedAt.value = Date()
                        closed.open()
                    }
                }
                guard let delay else { return start() }
                let timer = LoopTimer(loop: responder.loop)
                timer.start(after: delay) { timer.close(); start() }
            }
        }
    }

    func testClosingAQuietEventStreamEndsItWithinASecond() throws {
        let stream = QuietStream()
        let server = try HTTPTestServer { stream.route($0) }
        defer { server.stop() }
        var left: Date
        do {
            let client = try HTTPRawClient(port: server.port)
            client.send("GET /quiet HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertTrue(client.receive(until: ": hello").contains(": hello"))
            XCTAssertEqual(stream.reason.value, nil, "open while the client is there")
            left = Date()
        }  // closes the socket
        XCTAssertTrue(stream.closed.wait(timeout: 1), "the stream did not end within 1 s of the client closing")
        XCTAssertEqual(stream.reason.value, .clientClosed)
        XCTAssertLessThan(stream.closedAt.value!.timeIntervalSince(left), 1)
        XCTAssertTrue(httpEventually(timeout: 1) { (try? server.sync { $0.connectionCount }) == 0 })
    }

    func testHalfCloseOfAnEventStreamMeansTheClientLeft() throws {
        let stream = QuietStream()
        let server = try HTTPTestServer { stream.route($0) }
        defer { server.stop() }
        let client = try HTTPRawClient(port: server.port)
        client.send("GET /quiet HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = client.receive(until: ": hello")
        client.shutdownWrite()  // an SSE client sends nothing after its request
        XCTAssertTrue(stream.closed.wait(timeout: 1), "a half-close did not end the event stream within 1 s")
        XCTAssertEqual(stream.reason.value, .clientClosed)
        XCTAssertTrue(client.isClosedByPeer())
    }

    func testEventStreamStartedAfterTheClientLeftIsRefused() throws {
        let stream = QuietStream()
        let server = try HTTPTestServer { stream.route($0, delay: .milliseconds(200)) }
        defer { server.stop() }
        do {
            let client = try HTTPRawClient(port: server.port)
            client.send("GET /quiet HTTP/1.1\r\nHost: x\r\n\r\n")
        }  // gone before the handler starts the stream
        XCTAssertTrue(httpEventually(timeout: 2) { stream.started.value != nil })
        XCTAssertEqual(stream.started.value, false, "nobody is there to read the stream")
        XCTAssertTrue(httpEventually(timeout: 1) { (try? server.sync { $0.connectionCount }) == 0 })
    }

    func testHalfClosedClientStillGetsAFiniteStream() throws {
        let server = try HTTPTestServer { router in
            router.get("/slow") { _, responder in
                responder.startStream(status: 200, headers: ["Content-Length": "10", "Content-Type": "text/plain"])
                responder.write("01234")
                let timer = LoopTimer(loop: responder.loop)
                timer.start(after: .milliseconds(200)) {
                    timer.close()
                    responder.write("56789")
                    responder.end()
                }
            }
        }
        defer { server.stop() }
        let client = try HTTPRawClient(port: server.port)
        client.send("GET /slow HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        _ = client.receive(until: "01234")
        client.shutdownWrite()  // done sending, still reading: the answer has an end to wait for
        let rest = String(decoding: client.receiveAll(), as: UTF8.self)
        XCTAssertEqual(rest, "56789")
    }
}
