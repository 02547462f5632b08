@testable import Bindery
import Redis
import XCTest

final class SharedSceneStreamEntryTests: XCTestCase {
    private func bulk(_ text: String) -> RESPValue { .bulkString(Array(text.utf8)) }

    private func reply(_ entries: [(String, [RESPValue])]) -> RESPValue {
        .array([.array([bulk("scene:board:out"),
                        .array(entries.map { .array([bulk($0.0), .array($0.1)]) })])])
    }

    func testEntriesKeepTheirIdsAndFieldsInOrder() {
        let entries = SharedSceneStreamEntry.entries(in: reply([
            ("1-0", [bulk("v"), bulk("1"), bulk("p"), bulk("{\"type\":\"patch\"}")]),
            ("1-1", [bulk("v"), bulk("2"), bulk("o"), bulk("proc-a")]),
        ]))
        XCTAssertEqual(entries.map(\.id), ["1-0", "1-1"])
        XCTAssertEqual(entries[0]["v"], "1")
        XCTAssertEqual(entries[0]["p"], "{\"type\":\"patch\"}")
        XCTAssertNil(entries[0]["o"])
        XCTAssertEqual(entries[1]["o"], "proc-a")
    }

    func testALaterFieldOfTheSameNameWins() {
        let entries = SharedSceneStreamEntry.entries(in: reply([("1-0", [bulk("v"), bulk("1"), bulk("v"), bulk("2")])]))
        XCTAssertEqual(entries.first?["v"], "2")
    }

    func testFieldIsComparesWithoutDecoding() {
        let entry = SharedSceneStreamEntry.entries(in: reply([("1-0", [bulk("o"), bulk("proc-a")])]))[0]
        XCTAssertTrue(entry.field("o", is: "proc-a"))
        XCTAssertFalse(entry.field("o", is: "proc-b"))
        XCTAssertFalse(entry.field("o", is: "proc-ab"))
        XCTAssertFalse(entry.field("f", is: "proc-a"))
    }

    func testAnEntryWithANonStringFieldIsLeftOut() {
        let entries = SharedSceneStreamEntry.entries(in: reply([
            ("1-0", [bulk("v"), .integer(1)]),
            ("1-1", [bulk("v"), .bulkString(nil)]),
            ("1-2", [bulk("v"), bulk("3")]),
        ]))
        XCTAssertEqual(entries.map(\.id), ["1-2"])
    }

    func testATimeoutOrAnOddReplyHasNoEntries() {
        XCTAssertTrue(SharedSceneStreamEntry.entries(in: .array(nil)).isEmpty)
        XCTAssertTrue(SharedSceneStreamEntry.entries(in: .array([])).isEmpty)
        XCTAssertTrue(SharedSceneStreamEntry.entries(in: .array([.array([bulk("s")])])).isEmpty)
    }
}
