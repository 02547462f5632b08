import EventLoop
import Foundation
import HTTPServer
import XCTest

/// Streaming responses (SSE, fixed-length, HTTP/1.0) and upgrades through the real server.
final class HTTPResponderStreamingTests: XCTestCase {
    private func makeServer() throws -> HTTPTestServer {
        try HTTPTestServer { router in
            router.get("/events") { request, responder in
                let count = Int(request.queryValue("count") ?? "") ?? 3
                responder.startEventStream()
                var sent = 0
                let timer = LoopTimer(loop: responder.loop)
                timer.start(after: .milliseconds(5), repeating: .milliseconds(5)) {
                    sent += 1
                    responder.sendEvent("line one\nline two \(sent)", event: "tick", id: String(sent))
                    if sent == count {
                        timer.close()
                        responder.end()
                    }
                }
                responder.onClose = { _ in timer.close() }
            }
            router.get("/fixed") { request, responder in
                let short = request.queryValue("short") != nil
                responder.startStream(status: 200, headers: ["Content-Length": "10", "Content-Type": "text/plain"])
                responder.write("01234")
                XCTAssertFalse(responder.write("too long!"), "writing past Content-Length is refused")
                if !short { responder.write("56789") }
                responder.end()
            }
            router.upgrade("/ws/:scene") { request, upgrade in
                guard request.headers.containsToken("upgrade", in: "Connection"),
                      request.headers["Upgrade"]?.lowercased() == "echo" else {
                    upgrade.reject(.error(426, headers: ["Upgrade": "echo"]))
                    return
                }
                upgrade.accept(response: HTTPResponse(status: 101, headers: ["Upgrade": "echo", "Connection": "Upgrade"])) { tcp, early in
                    // Echo, prefixed with the scene, starting with what arrived with the head.
                    let scene = request.parameters["scene"] ?? "?"
                    try? tcp.write(Array("[\(scene)]".utf8) + early)
                    try? tcp.startReading { event in
                        switch event {
                        case .bytes(let bytes): try? tcp.write(WriteBuffer(bytes))
                        case .eof, .error: tcp.close()
                        }
                    }
                }
            }
        }
    }

    func testServerSentEventsWithCurl() throws {
        try XCTSkipUnless(curlAvailable)
        let server = try makeServer()
        defer { server.stop() }
        let result = try runCurl(["-N", "-i", "http://127.0.0.1:\(server.port)/events?count=3"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("Content-Type: text/event-stream; charset=utf-8"), result.stdout)
        XCTAssertTrue(result.stdout.contains("Cache-Control: no-cache"), result.stdout)
        XCTAssertTrue(result.stdout.hasSuffix("event: tick\nid: 3\ndata: line one\ndata: line two 3\n\n"), result.stdout)
        XCTAssertEqual(result.stdout.components(separatedBy: "event: tick").count - 1, 3)
    }

    func testClientLeavingAStreamIsReported() throws {
        let reason = HTTPTestBox<HTTPResponder.CloseReason?>(nil)
        let server = try HTTPTestServer { router in
            router.get("/forever") { _, responder in
                responder.startEventStream()
                responder.sendComment("hello")
                responder.onClose = { reason.value = $0 }
            }
        }
        defer { server.stop() }
        do {
            let client = try HTTPRawClient(port: server.port)
            client.send("GET /forever HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = client.receive(until: ": hello")
        }
        XCTAssertTrue(httpEventually { reason.value != nil })
        XCTAssertEqual(reason.value, .clientClosed)
        XCTAssertEqual(try server.sync { $0.connectionCount }, 0)
    }

    func testFixedLengthStreamAndShortStreamClosesTheConnection() throws {
        let server = try makeServer()
        defer { server.stop() }
        let client = try HTTPRawClient(port: server.port)
        client.send("GET /fixed HTTP/1.1\r\nHost: x\r\n\r\n")
        let (head, body) = client.receiveResponse()
        XCTAssertTrue(head.contains("Content-Length: 10"), head)
        XCTAssertFalse(head.contains("chunked"), head)
        XCTAssertEqual(body, "0123456789")
        client.send("GET /fixed?short HTTP/1.1\r\nHost: x\r\n\r\n")
        let rest = String(decoding: client.receiveAll(), as: UTF8.self)
        XCTAssertTrue(rest.hasSuffix("\r\n\r\n01234"), rest)  // then the server closed
    }

    func testHTTP10StreamIsDelimitedByClose() throws {
        let server = try makeServer()
        defer { server.stop() }
        let client = try HTTPRawClient(port: server.port)
        client.send("GET /events?count=2 HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        let all = String(decoding: client.receiveAll(), as: UTF8.self)
        XCTAssertFalse(all.contains("Transfer-Encoding"), all)
        XCTAssertTrue(all.contains("Connection: close"), all)
        XCTAssertTrue(all.hasSuffix("data: line two 2\n\n"), all)
    }

    func testUpgradeHandsOverTheConnectionWithEarlyBytes() throws {
        let server = try makeServer()
        defer { server.stop() }
        let client = try HTTPRawClient(port: server.port)
        client.send("GET /ws/colors HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\nearly bytes")
        let response = client.receive(until: "early bytes")
        XCTAssertTrue(response.hasPrefix("HTTP/1.1 101 Switching Protocols\r\n"), response)
        XCTAssertTrue(response.contains("Connection: Upgrade\r\n"), response)
        XCTAssertFalse(response.contains("Content-Length"), response)
        XCTAssertTrue(response.hasSuffix("\r\n\r\n[colors]early bytes"), response)
        // No longer HTTP: no parser, no timeouts, not counted.
        client.send("GET / HTTP/1.1\r\n\r\n")
        XCTAssertEqual(client.receive(until: "\r\n\r\n"), "GET / HTTP/1.1\r\n\r\n")
        XCTAssertEqual(try server.sync { $0.connectionCount }, 0)
    }

    func testRejectedUpgradeStaysHTTP() throws {
        let server = try makeServer()
        defer { server.stop() }
        let client = try HTTPRawClient(port: server.port)
        client.send("GET /ws/colors HTTP/1.1\r\nHost: x\r\n\r\n")
        let (head, _) = client.receiveResponse()
        XCTAssertTrue(head.hasPrefix("HTTP/1.1 426 Upgrade Required"), head)
        XCTAssertTrue(head.contains("Upgrade: echo"), head)
        client.send("GET /fixed HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(client.receiveResponse().body, "0123456789")
    }

    func testResponseHeaderInjectionIsDropped() throws {
        let server = try HTTPTestServer { router in
            router.get("/inject") { request, responder in
                responder.respond(.text("ok", headers: ["X-Echo": "a\r\nSet-Cookie: evil=1", "X-Fine": "yes"]))
            }
        }
        defer { server.stop() }
        let client = try HTTPRawClient(port: server.port)
        client.send("GET /inject HTTP/1.1\r\nHost: x\r\n\r\n")
        let (head, body) = client.receiveResponse()
        XCTAssertFalse(head.contains("evil"), head)
        XCTAssertTrue(head.contains("X-Fine: yes"), head)
        XCTAssertEqual(body, "ok")
    }
}
