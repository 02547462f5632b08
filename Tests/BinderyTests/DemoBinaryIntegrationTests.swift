import Foundation
import XCTest

/// The real `bindery` executable with the demo app: `Tests/Integration/demo_scenes.py`
/// starts it (127.0.0.1, a port it picks), drives all seven demo scenes with Python
/// `websockets`, `websocat` and `curl` (SSE included), checks resume, the shared board,
/// every bad-input error code, rate limiting (a second binary), and that SIGTERM exits 0.
///
/// Needs the test venv (`make test-deps`; skipped without it) and the built binary:
/// `swift build --build-tests` builds `bindery` beside the test bundle. `BINDERY_BINARY`
/// overrides the path.
final class DemoBinaryIntegrationTests: XCTestCase {
    private static let venv = ProcessInfo.processInfo.environment["BINDERY_TEST_VENV"] ?? "/tmp/bindery-test-venv"

    func testEveryDemoSceneOnTheRealBinary() throws {
        let python = Self.venv + "/bin/python"
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw XCTSkip("no Python venv at \(Self.venv): run `make test-deps`")
        }
        let binary = try XCTUnwrap(Self.binderyBinary(), "no bindery binary: run `swift build --build-tests` (or set BINDERY_BINARY)")
        let script = Self.repository.appendingPathComponent("Tests/Integration/demo_scenes.py").path

        let started = Date()
        let result = try runProcess(python, [script, binary], timeout: 60)
        XCTAssertEqual(result.status, 0, "\(result.stdout)\n\(result.stderr)")
        XCTAssertTrue(result.stdout.hasPrefix("OK"), result.stdout)
        print("demo_scenes.py (\(binary), \(String(format: "%.1f", Date().timeIntervalSince(started))) s): \(result.stdout)",
              terminator: "")
    }

    /// The package root (this file is `Tests/BinderyTests/…`).
    private static var repository: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// `BINDERY_BINARY`, else `bindery` beside the running test bundle (its build
    /// products folder), else `.build/debug/bindery` in the package.
    private static func binderyBinary() -> String? {
        if let path = ProcessInfo.processInfo.environment["BINDERY_BINARY"] { return path }
        var candidates: [URL] = []
        let bundle = URL(fileURLWithPath: CommandLine.arguments.first ?? "")
        for start in [bundle, Bundle.main.bundleURL] {
            var folder = start.deletingLastPathComponent()
            // On macOS the executable sits inside BinderyPackageTests.xctest/Contents/MacOS.
            for _ in 0..<4 {
                candidates.append(folder.appendingPathComponent("bindery"))
                folder = folder.deletingLastPathComponent()
            }
        }
        candidates.append(repository.appendingPathComponent(".build/debug/bindery"))
        return candidates.map(\.path).first { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
                && FileManager.default.isExecutableFile(atPath: path)
        }
    }
}
