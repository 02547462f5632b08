import EventLoop
import Foundation
import HTTPServer
import XCTest

/// StaticFiles hands disk work to a Dispatch queue and results back to the loop; many
/// clients at once exercise those hand-offs (this class also runs under
/// ThreadSanitizer: `make test-tsan`).
final class StaticFilesConcurrencyTests: XCTestCase {
    func testManyClientsFetchSmallAndStreamedFilesAtOnce() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bindery-static-conc-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let small = "small file\n"
        try small.write(to: directory.appendingPathComponent("small.txt"), atomically: true, encoding: .utf8)
        let big = [UInt8]((0..<(600 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try Data(big).write(to: directory.appendingPathComponent("big.bin"))
        let files = try StaticFiles(root: directory.path, streamThreshold: 64 * 1024)
        let server = try HTTPTestServer { router in files.register(on: router) }
        defer { server.stop() }

        let failures = HTTPTestBox<[String]>([])
        let group = DispatchGroup()
        for index in 0..<16 {
            group.enter()
            Thread {
                defer { group.leave() }
                do {
                    let client = try HTTPRawClient(port: server.port)
                    for round in 0..<4 {
                        let wantsBig = (index + round) % 2 == 0
                        client.send("GET /\(wantsBig ? "big.bin" : "small.txt") HTTP/1.1\r\nHost: x\r\n\r\n")
                        let head = client.receiveHead()
                        guard head.hasPrefix("HTTP/1.1 200 ") else { throw HTTPTestError("client \(index): \(head)") }
                        let body = client.receiveBytes(wantsBig ? big.count : small.utf8.count)
                        if wantsBig ? body != big : body != Array(small.utf8) {
                            throw HTTPTestError("client \(index) round \(round): wrong body (\(body.count) bytes)")
                        }
                    }
                } catch {
                    failures.value.append(String(describing: error))
                }
            }.start()
        }
        XCTAssertEqual(group.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(failures.value, [])
    }
}
