import EventLoop
import Foundation
import HTTPServer
import XCTest

/// The real server on 127.0.0.1 against raw sockets: malformed requests, smuggling,
/// pipelining, timeouts (slowloris), connection limits, backpressure, shutdown.
final class HTTPServerIntegrationTests: XCTestCase {
    private func makeServer(_ configuration: HTTPServer.Configuration = .init()) throws -> HTTPTestServer {
        try HTTPTestServer(configuration: configuration) { router in
            router.get("/hello") { _, responder in responder.respond(.text("hello\n")) }
            router.post("/echo") { request, responder in
                responder.respond(HTTPResponse(status: 200, headers: ["Content-Type": "application/octet-stream"], body: request.body))
            }
            router.get("/items/:id") { request, responder in
                responder.respond(.text("item \(request.parameters["id"]!)"))
            }
            router.get("/later") { _, responder in
                // Answer on a later loop turn.
                let loop = responder.loop
                let box = LoopOnly(responder)
                loop.execute { box.value.respond(.text("later")) }
            }
            router.get("/big") { request, responder in
                let size = Int(request.queryValue("size") ?? "") ?? 1 << 20
                responder.respond(HTTPResponse(status: 200, body: [UInt8](repeating: 0x61, count: size)))
            }
        }
    }

    private func status(of response: String) -> Int? {
        response.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) }
    }

    /// Sends `request` on a fresh connection; returns everything until the server closes.
    private func exchange(_ server: HTTPTestServer, _ request: String) throws -> String {
        let client = try HTTPRawClient(port: server.port)
        client.send(request)
        return String(decoding: client.receiveAll(), as: UTF8.self)
    }

    // MARK: - Basics

    func testResponseHasDateContentLengthAndContentType() throws {
        let server = try makeServer()
        defer { server.stop() }
        let client = try HTTPRawClient(port: server.port)
        client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        let (head, body) = client.receiveResponse()
        XCTAssertTrue(head.hasPrefix("HTTP/1.1 200 OK\r\n"), head)
        XCTAssertTrue(head.contains("\r\nContent-Length: 6"), head)
        XCTAssertTrue(head.contains("\r\nContent-Type: text/plain; charset=utf-8"), head)
        let date = head.split(separator: "\r\n").first { $0.hasPrefix("Date: ") }.map { String($0.dropFirst(6)) }
        XCTAssertNotNil(date.flatMap(HTTPDate.parse), head)
        XCTAssertFalse(head.contains("Connection:"), head)
        XCTAssertEqual(body, "hello\n")
    }

    func testPipelinedRequestsAreAnsweredInOrderEvenWhenTheFirstAnswersLater() throws {
        let server = try makeServer()
        defer { server.stop() }
        let client = try HTTPRawClient(port: server.port)
        client.send("GET /later HTTP/1.1\r\nHost: x\r\n\r\nGET /items/7 HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabcGET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let all = String(decoding: client.receiveAll(), as: UTF8.self)
        let bodies = ["later", "item 7", "abc", "hello\n"].map { all.range(of: $0)?.lowerBound }
        XCTAssertFalse(bodies.contains(nil), all)
        XCTAssertEqual(bodies.compactMap { $0 }, bodies.compactMap { $0 }.sorted(), all)
        XCTAssertEqual(all.components(separatedBy: "HTTP/1.1 200 OK").count - 1, 4)
        XCTAssertTrue(all.contains("Connection: close"), all)
    }

    func testClientThatHalfClosesAfterPipeliningGetsEveryAnswer() throws {
        let server = try makeServer()
        defer { server.stop() }
        let client = try HTTPRawClient(port: server.port)
        client.send("GET /later HTTP/1.1\r\nHost: x\r\n\r\nGET /big?size=300000 HTTP/1.1\r\nHost: x\r\n\r\nGET /items/3 HTTP/1.1\r\nHost: x\r\n\r\n")
        client.shutdownWrite()
        let all = client.receiveAll()
        let text = String(decoding: all, as: UTF8.self)
        XCTAssertEqual(text.components(separatedBy: "HTTP/1.1 200 OK").count - 1, 3, String(text.prefix(300)))
        XCTAssertTrue(text.hasSuffix("item 3"), String(text.suffix(100)))
        XCTAssertGreaterThan(all.count, 300_000)
    }

    func testHeadSendsHeadersOnly() throws {
        let server = try makeServer()
        defer { server.stop() }
        let response = try exchange(server, "HEAD /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        XCTAssertTrue(response.hasPrefix("HTTP/1.1 200 OK"), response)
        XCTAssertTrue(response.contains("Content-Length: 6\r\n"), response)
        XCTAssertTrue(response.hasSuffix("\r\n\r\n"), response)
    }

    func testExpectContinue() throws {
        let server = try makeServer()
        defer { server.stop() }
        let client = try HTTPRawClient(port: server.port)
        client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n")
        XCTAssertEqual(client.receive(until: "\r\n\r\n"), "HTTP/1.1 100 Continue\r\n\r\n")
        client.send("body")
        let (head, body) = client.receiveResponse()
        XCTAssertTrue(head.hasPrefix("HTTP/1.1 200"), head)
        XCTAssertEqual(body, "body")
    }

    func testHTTP10KeepAliveRules() throws {
        let server = try makeServer()
        defer { server.stop() }
        let plain = try exchange(server, "GET /hello HTTP/1.0\r\n\r\n")
        XCTAssertTrue(plain.contains("Connection: close"), plain)
        let client = try HTTPRawClient(port: server.port)
        client.send("GET /hello HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        let (head, _) = client.receiveResponse()
        XCTAssertTrue(head.contains("Connection: keep-alive"), head)
        client.send("GET /items/2 HTTP/1.0\r\n\r\n")
        XCTAssertTrue(String(decoding: client.receiveAll(), as: UTF8.self).contains("item 2"))
    }

    func testChunkedRequestBody() throws {
        let server = try makeServer()
        defer { server.stop() }
        let response = try exchange(server, "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                                    + "3\r\nabc\r\n4\r\ndefg\r\n0\r\n\r\n")
        XCTAssertTrue(response.hasSuffix("\r\n\r\nabcdefg"), response)
    }

    func testRoutingAnswers404And405() throws {
        let server = try makeServer()
        defer { server.stop() }
        XCTAssertEqual(status(of: try exchange(server, "GET /nope HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")), 404)
        let notAllowed = try exchange(server, "DELETE /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        XCTAssertEqual(status(of: notAllowed), 405)
        XCTAssertTrue(notAllowed.contains("Allow: GET, HEAD"), notAllowed)
    }

    // MARK: - Malformed requests and smuggling

    func testEveryRejectionClassGetsItsStatusAndTheConnectionCloses() throws {
        let server = try makeServer()
        defer { server.stop() }
        let cases: [(String, Int)] = [
            ("GET / HTTP/1.1\r\n\r\n", 400),
            ("GET / HTTP/1.1\nHost: x\n\n", 400),
            ("GET / HTTP/1.1\r\nHost: x\r\nX: a\r\n b\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nHost: x\r\nBad Name: v\r\n\r\n", 400),
            ("GET /" + String(repeating: "a", count: 9000) + " HTTP/1.1\r\nHost: x\r\n\r\n", 414),
            ("GET / HTTP/1.1\r\nHost: x\r\nX: " + String(repeating: "a", count: 17000) + "\r\n\r\n", 431),
            ("GET / HTTP/1.1\r\nHost: x\r\n" + (0..<101).map { "H\($0): v\r\n" }.joined() + "\r\n", 431),
            ("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 2000000\r\n\r\n", 413),
            ("BREW / HTTP/1.1\r\nHost: x\r\n\r\n", 501),
            ("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", 505),
            ("GET / HTTP/3.0\r\nHost: x\r\n\r\n", 505),
            ("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nExpect: teapot\r\n\r\nx", 417),
        ]
        for (request, expected) in cases {
            let response = try exchange(server, request)
            XCTAssertEqual(status(of: response), expected, "\(request.prefix(60).debugDescription) -> \(response.prefix(80))")
            XCTAssertTrue(response.contains("Connection: close"), response)
        }
    }

    func testSmugglingAttemptsAreRejectedAndNothingBehindThemIsServed() throws {
        let server = try makeServer()
        defer { server.stop() }
        let hidden = "GET /items/smuggled HTTP/1.1\r\nHost: x\r\n\r\n"
        let attempts = [
            // CL.TE and TE.CL
            "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 6\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + hidden,
            "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 4\r\n\r\n5c\r\n" + hidden + "\r\n0\r\n\r\n",
            // obfuscated Transfer-Encoding
            "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding : chunked\r\n\r\n0\r\n\r\n" + hidden,
            "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: xchunked\r\n\r\n0\r\n\r\n" + hidden,
            "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTransfer-encoding: identity\r\n\r\n0\r\n\r\n" + hidden,
            "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding:\r\n chunked\r\n\r\n0\r\n\r\n" + hidden,
            // duplicate, differing Content-Length
            "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nContent-Length: 44\r\n\r\n" + hidden,
            // bare LF inside the chunked framing
            "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\n\r\n" + hidden,
            // Transfer-Encoding in HTTP/1.0
            "POST /echo HTTP/1.0\r\nTransfer-Encoding: chunked\r\nConnection: keep-alive\r\n\r\n0\r\n\r\n" + hidden,
        ]
        for attempt in attempts {
            let response = try exchange(server, attempt)
            XCTAssertTrue(response.hasPrefix("HTTP/1.1 400 ") || response.hasPrefix("HTTP/1.1 501 "), "\(attempt.debugDescription) -> \(response)")
            XCTAssertFalse(response.contains("smuggled"), response)
            XCTAssertEqual(response.components(separatedBy: "HTTP/1.1 ").count - 1, 1, response)
        }
    }

    // MARK: - Timeouts

    func testSlowlorisIsCutAtTheHeaderTimeout() throws {
        var configuration = HTTPServer.Configuration()
        configuration.headerReadTimeout = .seconds(1)
        let server = try makeServer(configuration)
        defer { server.stop() }
        let client = try HTTPRawClient(port: server.port)
        let request = Array("GET /hello HTTP/1.1\r\nHost: x\r\nX-Padding: " .utf8) + [UInt8](repeating: 0x61, count: 100)
        let start = Date()
        var sent = 0
        // One byte every 200 ms: the head would take ~25 s to arrive.
        while sent < request.count, Date().timeIntervalSince(start) < 5 {
            guard client.send([request[sent]]) else { break }
            sent += 1
            usleep(200_000)
            var pending: Int32 = 0
            if ioctl(client.fd, UInt(FIONREAD), &pending) == 0, pending > 0 { break }
        }
        let response = String(decoding: client.receiveAll(), as: UTF8.self)
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertTrue(response.hasPrefix("HTTP/1.1 408 "), response)
        XCTAssertLessThan(elapsed, 2.5, "cut after \(elapsed) s")
        XCTAssertGreaterThan(elapsed, 0.9)
        XCTAssertLessThan(sent, request.count)
    }

    func testSilentConnectionIsClosedAtTheHeaderTimeout() throws {
        var configuration = HTTPServer.Configuration()
        configuration.headerReadTimeout = .milliseconds(300)
        let server = try makeServer(configuration)
        defer { server.stop() }
        let client = try HTTPRawClient(port: server.port)
        let start = Date()
        XCTAssertTrue(client.isClosedByPeer())
        XCTAssertLessThan(Date().timeIntervalSince(start), 2)
    }

    func testIdleKeepAliveConnectionIsClosedAfterTheIdleTimeout() throws {
        var configuration = HTTPServer.Configuration()
        configuration.idleTimeout = .milliseconds(300)
        let server = try makeServer(configuration)
        defer { server.stop() }
        let client = try HTTPRawClient(port: server.port)
        client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = client.receiveResponse()
        let start = Date()
        XCTAssertTrue(client.isClosedByPeer())
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertGreaterThan(elapsed, 0.2)
        XCTAssertLessThan(elapsed, 2)
        XCTAssertEqual(try server.sync { $0.connectionCount }, 0)
    }

    func testSlowBodyIsCutAtTheBodyTimeout() throws {
        var configuration = HTTPServer.Configuration()
        configuration.bodyReadTimeout = .milliseconds(400)
        let server = try makeServer(configuration)
        defer { server.stop() }
        let client = try HTTPRawClient(port: server.port)
        client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nabc")
        let response = String(decoding: client.receiveAll(), as: UTF8.self)
        XCTAssertTrue(response.hasPrefix("HTTP/1.1 408 "), response)
    }

    // MARK: - Limits

    func testFullServerDropsTheConnectionThatWaitedLongest() throws {
        var configuration = HTTPServer.Configuration()
        configuration.maxConnections = 2
        let server = try makeServer(configuration)
        defer { server.stop() }
        // Two clients take the slots and never send a request (as a slowloris would).
        let first = try HTTPRawClient(port: server.port)
        XCTAssertTrue(httpEventually { (try? server.sync { $0.connectionCount }) == 1 })
        let second = try HTTPRawClient(port: server.port)
        XCTAssertTrue(httpEventually { (try? server.sync { $0.connectionCount }) == 2 })
        // Silent for longer than the grace a new connection gets for its first bytes.
        Thread.sleep(forTimeInterval: 0.2)
        // A third is admitted: the longest waiting (the first) makes room.
        let third = try HTTPRawClient(port: server.port)
        third.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(third.receiveResponse().body, "hello\n")
        XCTAssertEqual(first.receiveAll(), [], "the first was closed without an answer")
        // The second still has its slot.
        second.send("GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        XCTAssertEqual(second.receiveResponse().body, "hello\n")
    }

    func testAConnectionIsNotDroppedBeforeItCouldSendItsRequest() throws {
        var configuration = HTTPServer.Configuration()
        configuration.maxConnections = 1
        let server = try makeServer(configuration)
        defer { server.stop() }
        let first = try HTTPRawClient(port: server.port)
        XCTAssertTrue(httpEventually { (try? server.sync { $0.connectionCount }) == 1 })
        // Just accepted and silent: not dropped yet, so the newcomer is refused.
        let second = try HTTPRawClient(port: server.port)
        second.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertTrue(String(decoding: second.receiveAll(), as: UTF8.self).hasPrefix("HTTP/1.1 503 "))
        first.send("GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        XCTAssertEqual(first.receiveResponse().body, "hello\n")
    }

    func testANewcomerIsAnsweredEvenWhenRefusalsPileUp() throws {
        var configuration = HTTPServer.Configuration()
        configuration.maxConnections = 2
        let server = try makeServer(configuration)
        defer { server.stop() }
        // Two silent clients fill the server, two more are refused and never read their 503.
        let silent = try (0..<4).map { _ in try HTTPRawClient(port: server.port) }
        XCTAssertTrue(httpEventually { (try? server.sync { $0.connectionCount }) == 2 })
        // The next one is still answered (a 503, or a 200 if a silent one was dropped for it).
        let newcomer = try HTTPRawClient(port: server.port)
        newcomer.send("GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let answer = String(decoding: newcomer.receiveAll(), as: UTF8.self)
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 503 ") || answer.hasPrefix("HTTP/1.1 200 "), answer)
        withExtendedLifetime(silent) {}
    }

    func testConnectionsBeyondTheLimitGet503WhenAllAreBeingAnswered() throws {
        var configuration = HTTPServer.Configuration()
        configuration.maxConnections = 2
        let parked = HTTPTestBox(0)
        let server = try HTTPTestServer(configuration: configuration) { router in
            router.get("/hello") { _, responder in responder.respond(.text("hello\n")) }
            router.get("/slow") { _, responder in
                // Answered a second later: the connection is busy meanwhile.
                parked.value += 1
                let box = LoopOnly(responder)
                _ = responder.loop.scheduleTimer(after: .seconds(1)) { box.value.respond(.text("slow\n")) }
            }
        }
        defer { server.stop() }
        let first = try HTTPRawClient(port: server.port)
        let second = try HTTPRawClient(port: server.port)
        first.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        second.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertTrue(httpEventually { parked.value == 2 })
        let third = try HTTPRawClient(port: server.port)
        third.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        let refused = String(decoding: third.receiveAll(), as: UTF8.self)
        XCTAssertTrue(refused.hasPrefix("HTTP/1.1 503 "), refused)
        XCTAssertTrue(refused.contains("Retry-After: 1"), refused)
        // The busy ones are answered.
        XCTAssertEqual(first.receiveResponse().body, "slow\n")
        XCTAssertEqual(second.receiveResponse().body, "slow\n")
        // Once they are idle again, a newcomer takes one's place.
        let fourth = try HTTPRawClient(port: server.port)
        fourth.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(fourth.receiveResponse().body, "hello\n")
    }

    // MARK: - Backpressure

    func testPipeliningClientThatDoesNotReadCannotGrowTheOutgoingBuffer() throws {
        var configuration = HTTPServer.Configuration()
        configuration.maxOutgoingBufferBytes = 256 * 1024
        let served = HTTPTestBox(0)
        let server = try HTTPTestServer(configuration: configuration) { router in
            router.get("/big") { _, responder in
                served.value += 1
                responder.respond(HTTPResponse(status: 200, body: [UInt8](repeating: 0x61, count: 128 * 1024)))
            }
        }
        defer { server.stop() }
        let client = try HTTPRawClient(port: server.port)
        // Shrink our receive window so the kernel buffers little on our side.
        var small: Int32 = 16 * 1024
        setsockopt(client.fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        let request = "GET /big HTTP/1.1\r\nHost: x\r\n\r\n"
        // 200 requests would be 25 MiB of responses; the last one closes the connection.
        client.send(String(repeating: request, count: 199) + "GET /big HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        usleep(500_000)
        let servedWhileBlocked = served.value
        XCTAssertLessThan(servedWhileBlocked, 60, "the server kept producing responses nobody read")
        // Reading resumes the pipeline.
        var total = 0
        var chunk = [UInt8](repeating: 0, count: 256 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(client.fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            total += count
        }
        XCTAssertEqual(served.value, 200)
        XCTAssertGreaterThan(total, 200 * 128 * 1024)
    }

    func testEventStreamToAClientThatStopsReadingIsDropped() throws {
        var configuration = HTTPServer.Configuration()
        configuration.maxOutgoingBufferBytes = 64 * 1024
        let closeReason = HTTPTestBox<HTTPResponder.CloseReason?>(nil)
        let eventsSent = HTTPTestBox(0)
        let server = try HTTPTestServer(configuration: configuration) { router in
            router.get("/events") { _, responder in
                responder.startEventStream()
                responder.onClose = { reason in closeReason.value = reason }
                let payload = String(repeating: "x", count: 4000)
                let timer = LoopTimer(loop: responder.loop)
                timer.start(after: .milliseconds(1), repeating: .milliseconds(1)) {
                    for _ in 0..<8 {
                        guard responder.sendEvent(payload, event: "tick") else {
                            timer.close()
                            return
                        }
                        eventsSent.value += 1
                    }
                }
            }
        }
        defer { server.stop() }
        let client = try HTTPRawClient(port: server.port)
        var small: Int32 = 8 * 1024
        setsockopt(client.fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        client.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        let head = client.receive(until: "event: tick")
        XCTAssertTrue(head.contains("Content-Type: text/event-stream"), head)
        XCTAssertTrue(head.contains("Transfer-Encoding: chunked"), head)
        // Stop reading: the stream must be dropped rather than buffered without bound.
        XCTAssertTrue(httpEventually(timeout: 10) { closeReason.value != nil })
        XCTAssertEqual(closeReason.value, .backpressure)
        XCTAssertLessThan(eventsSent.value, 2000)
        // The server forgot the connection. (The client would see EOF only after draining
        // what the kernel still holds for it, which with its tiny window takes long.)
        XCTAssertEqual(try server.sync { $0.connectionCount }, 0)
    }

    func testSlowReaderOfAClosingResponseStillGetsAllOfIt() throws {
        var configuration = HTTPServer.Configuration()
        configuration.lingerTimeout = .milliseconds(100)
        let server = try makeServer(configuration)
        defer { server.stop() }
        let client = try HTTPRawClient(port: server.port)
        var small: Int32 = 16 * 1024
        setsockopt(client.fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        let size = 12 << 20
        client.send("GET /big?size=\(size) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        usleep(600_000)  // longer than the linger timeout: the queued bytes must not be dropped
        let all = client.receiveAll(limit: .max)
        XCTAssertGreaterThan(all.count, size)
        XCTAssertEqual(all.suffix(5), [0x61, 0x61, 0x61, 0x61, 0x61])
        let head = String(decoding: all.prefix(300), as: UTF8.self)
        XCTAssertTrue(head.contains("Content-Length: \(size)"), head)
    }

    func testClientThatNeverReadsIsCutAtTheSendTimeout() throws {
        var configuration = HTTPServer.Configuration()
        configuration.sendTimeout = .milliseconds(300)
        let server = try makeServer(configuration)
        defer { server.stop() }
        let client = try HTTPRawClient(port: server.port)
        var small: Int32 = 16 * 1024
        setsockopt(client.fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        client.send("GET /big?size=\(16 << 20) HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertTrue(httpEventually { (try? server.sync { $0.connectionCount }) == 1 })
        let start = Date()
        XCTAssertTrue(httpEventually { (try? server.sync { $0.connectionCount }) == 0 })
        XCTAssertLessThan(Date().timeIntervalSince(start), 3)
    }

    // MARK: - Shutdown

    func testShutdownFinishesInFlightResponsesClosesIdleConnectionsAndRunsHooks() throws {
        let pending = HTTPTestBox<LoopOnly<HTTPResponder>?>(nil)
        let server = try HTTPTestServer { router in
            router.get("/slow") { _, responder in pending.value = LoopOnly(responder) }
            router.get("/hello") { _, responder in responder.respond(.text("hello\n")) }
        }
        let hookRan = HTTPTestBox(false)
        let idle = try HTTPRawClient(port: server.port)
        idle.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = idle.receiveResponse()
        let busy = try HTTPRawClient(port: server.port)
        busy.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertTrue(httpEventually { pending.value != nil })
        let finished = HTTPTestGate()
        _ = try server.sync { server in
            server.onShutdown { done in
                hookRan.value = true
                done()
            }
            server.shutdown(timeout: .seconds(5)) { finished.open() }
        }
        XCTAssertTrue(idle.isClosedByPeer())
        XCTAssertTrue(hookRan.value)
        XCTAssertThrowsError(try HTTPRawClient(port: server.port, timeout: 1), "still accepting after shutdown")
        XCTAssertFalse(finished.wait(timeout: 0.2))
        server.loop.execute { pending.value?.value.respond(.text("done")) }
        let response = String(decoding: busy.receiveAll(), as: UTF8.self)
        XCTAssertTrue(response.contains("Connection: close"), response)
        XCTAssertTrue(response.hasSuffix("done"), response)
        XCTAssertTrue(finished.wait())
        server.stop()
    }

    func testShutdownTimeoutClosesStuckResponses() throws {
        let reason = HTTPTestBox<HTTPResponder.CloseReason?>(nil)
        let handled = HTTPTestBox(false)
        let server = try HTTPTestServer { router in
            router.get("/never") { _, responder in
                responder.onClose = { reason.value = $0 }
                handled.value = true
            }
        }
        let client = try HTTPRawClient(port: server.port)
        client.send("GET /never HTTP/1.1\r\nHost: x\r\n\r\n")
        // The handler, not just the accept: under load the request may still be unparsed.
        XCTAssertTrue(httpEventually { handled.value })
        let finished = HTTPTestGate()
        _ = try server.sync { $0.shutdown(timeout: .milliseconds(200)) { finished.open() } }
        XCTAssertTrue(finished.wait())
        XCTAssertEqual(reason.value, .shutdown)
        XCTAssertTrue(client.isClosedByPeer())
        server.stop()
    }
}

/// Polls `condition` until it holds or `timeout` passes.
func httpEventually(timeout: TimeInterval = httpTestTimeout, _ condition: () -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while !condition() {
        if Date() > deadline { return false }
        usleep(5_000)
    }
    return true
}
