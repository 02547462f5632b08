import Bindery
import Foundation
import Logging
import XCTest

/// The default log handler's lines: logfmt and JSON, each with time and level.
final class BinderyLogHandlerTests: XCTestCase {
    private let time = "2026-11-26T00:30:00.123Z"

    func testLogfmtQuotesOnlyWhatNeedsIt() {
        let line = BinderyLogHandler.line(format: .logfmt, time: time, level: .info, message: "request",
                                          metadata: ["path": "/a b", "status": .stringConvertible(404), "q": "say \"hi\"\n"])
        XCTAssertEqual(line, #"time=2026-11-26T00:30:00.123Z level=info msg=request path="/a b" q="say \"hi\"\n" status=404"#)
    }

    func testJSONLinesKeepNumbersAsNumbers() throws {
        let line = BinderyLogHandler.line(format: .json, time: time, level: .notice, message: "listening on http://x:1",
                                          metadata: ["status": .stringConvertible(200), "ms": .stringConvertible(1.5),
                                                     "client": "127.0.0.1:5"])
        XCTAssertEqual(line, #"{"time":"2026-11-26T00:30:00.123Z","level":"notice","msg":"listening on http://x:1","client":"127.0.0.1:5","ms":1.5,"status":200}"#)
        XCTAssertNotNil(try JSONSerialization.jsonObject(with: Data(line.utf8)))
    }

    func testTimestampIsUTCRFC3339WithMilliseconds() throws {
        let stamp = BinderyLogHandler.timestamp()
        XCTAssertNotNil(try #/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/#.wholeMatch(in: stamp), stamp)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let date = try XCTUnwrap(formatter.date(from: stamp))
        XCTAssertLessThan(abs(date.timeIntervalSinceNow), 5)
    }

    func testHandlerFiltersByLevelAndAddsMetadata() {
        let lines = LockedLines()
        var logger = Logger(label: "test") { _ in
            BinderyLogHandler(format: .logfmt, level: .info) { lines.append($0) }
        }
        logger[metadataKey: "app"] = "demo"
        logger.debug("hidden")
        logger.info("shown", metadata: ["n": .stringConvertible(1)])
        XCTAssertEqual(lines.all.count, 1)
        XCTAssertTrue(lines.all[0].hasSuffix("level=info msg=shown app=demo n=1"), lines.all[0])
        logger.logLevel = .debug
        logger.debug("now shown")
        XCTAssertEqual(lines.all.count, 2)
    }
}

private final class LockedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}
