import LoopTestSupport
import EventLoop
import Foundation
import XCTest

final class TCPListenerTests: XCTestCase {
    func testListensOnAnEphemeralIPv4PortAndAcceptsWithPeerAddress() throws {
        let runner = try LoopThread()
        defer { runner.stop() }
        let loop = runner.loop
        let accepted = Recorder<String>()
        let listener = LoopBox<TCPListener?>(nil)
        let address = try runner.sync { () -> SocketAddress in
            let server = try TCPListener(loop: loop, host: "127.0.0.1", port: 0) { connection in
                accepted.append("peer \(connection.peerAddress.map(String.init(describing:)) ?? "none"), on loop: \(loop.isLoopThread)")
                connection.close()
            }
            listener.value = server
            return server.localAddress
        }
        XCTAssertEqual(address.family, .ipv4)
        XCTAssertEqual(address.host, "127.0.0.1")
        XCTAssertGreaterThan(address.port, 0)

        let client = try TestClient(port: address.port)
        XCTAssertTrue(accepted.wait(for: 1))
        XCTAssertEqual(accepted.values, ["peer 127.0.0.1:\(client.localPort), on loop: true"])
        // The server closed the connection: the client sees end of stream.
        XCTAssertEqual(try client.receiveUntilEOF(), [])
        try runner.sync { listener.value!.close() }
    }

    func testListensOnIPv6Loopback() throws {
        let runner = try LoopThread()
        defer { runner.stop() }
        let loop = runner.loop
        let accepted = Recorder<String>()
        let listener = LoopBox<TCPListener?>(nil)
        let address: SocketAddress
        do {
            address = try runner.sync { () -> SocketAddress in
                let server = try TCPListener(loop: loop, host: "::1", port: 0) { connection in
                    accepted.append(connection.peerAddress?.host ?? "none")
                    connection.close()
                }
                listener.value = server
                return server.localAddress
            }
        } catch let error as UVError where error.name == "EADDRNOTAVAIL" || error.name == "EAFNOSUPPORT" {
            throw XCTSkip("no IPv6 loopback on this machine: \(error)")
        }
        XCTAssertEqual(address.family, .ipv6)
        XCTAssertEqual(address.description, "[::1]:\(address.port)")
        let client = try TestClient(host: "::1", port: address.port)
        XCTAssertTrue(accepted.wait(for: 1))
        XCTAssertEqual(accepted.values, ["::1"])
        XCTAssertEqual(try client.receiveUntilEOF(), [])
        try runner.sync { listener.value!.close() }
    }

    func testPortInUseThrowsEADDRINUSE() throws {
        let runner = try LoopThread()
        defer { runner.stop() }
        let loop = runner.loop
        let outcome = try runner.sync { () -> String in
            let first = try TCPListener(loop: loop, host: "127.0.0.1", port: 0) { $0.close() }
            defer { first.close() }
            do throws(UVError) {
                let second = try TCPListener(loop: loop, host: "127.0.0.1", port: first.port) { $0.close() }
                second.close()
                return "second listener bound"
            } catch {
                return "\(error.name): \(error.operation)"
            }
        }
        XCTAssertTrue(outcome.hasPrefix("EADDRINUSE: "), outcome)
    }

    func testUnknownHostThrows() throws {
        let runner = try LoopThread()
        defer { runner.stop() }
        let loop = runner.loop
        let error = try runner.sync { () -> UVError? in
            do throws(UVError) {
                try TCPListener(loop: loop, host: "no-such-host.invalid", port: 0) { $0.close() }.close()
                return nil
            } catch {
                return error
            }
        }
        let unwrapped = try XCTUnwrap(error)
        XCTAssertTrue(unwrapped.name.hasPrefix("EAI_"), "\(unwrapped)")
        XCTAssertTrue(unwrapped.description.contains("no-such-host.invalid"), unwrapped.description)
    }

    func testLocalhostIsResolved() throws {
        let runner = try LoopThread()
        defer { runner.stop() }
        let loop = runner.loop
        let address = try runner.sync { () -> SocketAddress in
            let listener = try TCPListener(loop: loop, host: "localhost", port: 0) { $0.close() }
            defer { listener.close() }
            return listener.localAddress
        }
        XCTAssertTrue(["127.0.0.1", "::1"].contains(address.host), address.description)
    }

    func testClosedListenerRefusesConnectionsAndIsReleased() throws {
        let runner = try LoopThread()
        defer { runner.stop() }
        let loop = runner.loop
        let released = WeakBox<TCPListener>()
        let closed = Gate()
        let port = try runner.sync { () -> Int in
            let listener = try TCPListener(loop: loop, host: "127.0.0.1", port: 0) { $0.close() }
            released.value = listener
            listener.close { closed.open() }
            return listener.port
        }
        XCTAssertTrue(closed.wait())
        XCTAssertThrowsError(try TestClient(port: port))
        XCTAssertTrue(eventually { released.value == nil }, "a closed TCPListener leaked")
    }

    func testSocketAddressParsing() throws {
        XCTAssertEqual(try SocketAddress(host: "10.0.0.1", port: 80).description, "10.0.0.1:80")
        XCTAssertEqual(try SocketAddress(host: "[::1]", port: 443).description, "[::1]:443")
        XCTAssertEqual(try SocketAddress(host: "0:0::1", port: 1).host, "::1")
        XCTAssertThrowsError(try SocketAddress(host: "localhost", port: 80))
        XCTAssertThrowsError(try SocketAddress(host: "127.0.0.1", port: 65536))
    }
}
