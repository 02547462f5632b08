import Foundation
import XCTest

/// Two real `bindery --store redis+unix://...` processes and a real redis-server:
/// `Tests/Integration/cluster_resume.py` types into a session on one, SIGKILLs it, resumes
/// on the other (`resumed: true`, the typed text), drains one with SIGTERM (1001, leases
/// released) and checks that ended sessions leave no keys. Skipped without the test venv
/// or redis-server.
final class ClusterLiveTests: XCTestCase {
    func testASessionSurvivesItsProcessOnARealCluster() throws {
        let venv = ProcessInfo.processInfo.environment["BINDERY_TEST_VENV"] ?? "/tmp/bindery-test-venv"
        let python = venv + "/bin/python"
        guard FileManager.default.isExecutableFile(atPath: python) else { throw XCTSkip("no Python venv at \(venv)") }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/redis-server") else { throw XCTSkip("no redis-server") }
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let bundle = Bundle(for: Self.self).bundleURL.deletingLastPathComponent()
        let binary = ProcessInfo.processInfo.environment["BINDERY_BINARY"]
            ?? [bundle.appendingPathComponent("bindery").path, repository.appendingPathComponent(".build/debug/bindery").path]
                .first { FileManager.default.isExecutableFile(atPath: $0) }
        let path = try XCTUnwrap(binary, "no bindery binary: run `swift build --build-tests`")
        let script = repository.appendingPathComponent("Tests/Integration/cluster_resume.py").path
        let result = try runProcess(python, [script, path], timeout: 90)
        XCTAssertEqual(result.status, 0, "\(result.stdout)\n\(result.stderr)")
        XCTAssertTrue(result.stdout.hasPrefix("OK"), result.stdout)
    }
}
