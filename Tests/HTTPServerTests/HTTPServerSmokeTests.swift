import EventLoop
import HTTPServer
import XCTest

final class HTTPServerSmokeTests: XCTestCase {
    func testGetKeepAliveAndUpgrade() throws {
        let server = try HTTPTestServer { router in
            router.get("/hello/:name") { request, responder in
                responder.respond(.text("hello \(request.parameters["name"] ?? "?")\n"))
            }
            router.upgrade("/ws/:scene") { request, upgrade in
                guard request.headers.containsToken("websocket", in: "Upgrade") else {
                    upgrade.reject(.error(426)); return
                }
                upgrade.accept(response: HTTPResponse(status: 101, headers: ["Upgrade": "echo", "Connection": "Upgrade"])) { tcp, rest in
                    try? tcp.write(rest)
                    try? tcp.startReading { event in
                        switch event {
                        case .bytes(let bytes): try? tcp.write(WriteBuffer(bytes))
                        case .eof, .error: tcp.close()
                        }
                    }
                }
            }
        }
        defer { server.stop() }
        let client = try HTTPRawClient(port: server.port)
        client.send("GET /hello/w%20orld HTTP/1.1\r\nHost: x\r\n\r\nGET /hello/again HTTP/1.1\r\nHost: x\r\n\r\n")
        let first = client.receiveResponse()
        XCTAssertTrue(first.head.hasPrefix("HTTP/1.1 200 OK"), first.head)
        XCTAssertEqual(first.body, "hello w orld\n")
        let second = client.receiveResponse()
        XCTAssertEqual(second.body, "hello again\n")
        client.send("GET /ws/colors HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\nearly")
        let upgraded = client.receive(until: "early")
        XCTAssertTrue(upgraded.hasPrefix("HTTP/1.1 101 Switching Protocols\r\n"), upgraded)
        client.send("ping")
        XCTAssertEqual(client.receive(until: "ping"), "ping")
        XCTAssertEqual(try server.sync { $0.connectionCount }, 0)
    }
}
