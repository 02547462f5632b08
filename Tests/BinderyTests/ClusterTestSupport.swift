import Bindery
import Foundation
import LoopTestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The cluster tests' redis-server: durable (a SIGKILL and restart keeps the data), read
/// with redis-cli. Skipped (XCTSkip) when redis-server or redis-cli is not installed.
func clusterRedis() throws -> RedisServer {
    guard FileManager.default.isExecutableFile(atPath: RedisServer.cli) else {
        throw XCTSkip("redis-server is not installed (apt-get install redis-server)")
    }
    do {
        return try RedisServer(appendOnly: true)
    } catch let error as TestError {
        throw XCTSkip("\(error)")
    }
}

extension RedisServer {
    static let cli = "/usr/bin/redis-cli"
    var url: String { unixURL }

    /// Runs `redis-cli` against the server; its output, trimmed.
    @discardableResult
    func cli(_ arguments: [String]) throws -> String {
        let result = try runProcess(Self.cli, ["-s", socketPath] + arguments, timeout: 10)
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Polls `condition` every 20 ms for up to `timeout` seconds.
func clusterEventually(timeout: TimeInterval = 10, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        usleep(20_000)
    }
    return condition()
}

/// `curl -s` with the status code and response headers.
struct CurlResult {
    var status: Int
    var headers: String
    var body: String
}

func curlRequest(_ method: String, _ url: String, body: String? = nil, extra: [String] = [], timeout: Int = 10) throws -> CurlResult {
    let headerFile = FileManager.default.temporaryDirectory.appendingPathComponent("curl-\(UUID().uuidString.prefix(8)).txt").path
    defer { try? FileManager.default.removeItem(atPath: headerFile) }
    var arguments = ["-s", "-X", method, "-D", headerFile, "-w", "\n%{http_code}", "--max-time", "\(timeout)", url] + extra
    if let body { arguments += ["-H", "Content-Type: application/json", "--data-binary", body] }
    let result = try runProcess("/usr/bin/curl", arguments, timeout: TimeInterval(timeout + 5))
    var lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    let status = Int(lines.popLast() ?? "") ?? 0
    let headers = (try? String(contentsOfFile: headerFile, encoding: .utf8)) ?? ""
    return CurlResult(status: status, headers: headers, body: lines.joined(separator: "\n"))
}

extension CurlResult {
    /// The value of response header `name` (case-insensitive), if any.
    func header(_ name: String) -> String? {
        for line in headers.split(separator: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == name.lowercased() {
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    /// The body parsed as a JSON object.
    var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:]
    }
}
