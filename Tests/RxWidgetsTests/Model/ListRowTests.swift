import RxWidgets
import XCTest

final class ListRowTests: XCTestCase {
    private func rows(_ ids: String...) -> [ListRow] {
        ids.map { ListRow(id: $0, fields: ["name": .string($0)]) }
    }

    private func assertChanges(_ old: [ListRow], _ new: [ListRow], _ expected: [ListChange], file: StaticString = #filePath, line: UInt = #line) {
        guard let changes = ListRow.changes(from: old, to: new) else {
            return XCTFail("no changes computed", file: file, line: line)
        }
        XCTAssertEqual(changes, expected, file: file, line: line)
        XCTAssertEqual(ListRow.applying(changes, to: old), new, "applying gives the new list", file: file, line: line)
    }

    func testAppendIsOneInsert() {
        assertChanges(rows("a", "b"), rows("a", "b", "c", "d"), [.insert(index: 2, rows: rows("c", "d"))])
    }

    func testRemovalsAreGroupedFromTheEnd() {
        assertChanges(rows("a", "b", "c", "d", "e"), rows("a", "d"), [.remove(index: 4, count: 1), .remove(index: 1, count: 2)])
    }

    func testUpdateKeepsTheKey() {
        var new = rows("a", "b")
        new[1]["name"] = .string("B")
        assertChanges(rows("a", "b"), new, [.update(index: 1, row: new[1])])
    }

    func testMoves() {
        assertChanges(rows("a", "b", "c"), rows("c", "a", "b"), [.move(from: 2, to: 0)])
    }

    func testMixed() {
        let old = rows("a", "b", "c", "d")
        var new = rows("x", "d", "b", "y")
        new[2]["name"] = .string("B")
        let changes = ListRow.changes(from: old, to: new)!
        XCTAssertEqual(ListRow.applying(changes, to: old), new)
    }

    func testNothingChanged() {
        assertChanges(rows("a", "b"), rows("a", "b"), [])
        assertChanges([], [], [])
    }

    func testDuplicateIDsGiveNoKeyedChanges() {
        XCTAssertNil(ListRow.changes(from: rows("a", "a"), to: rows("a")))
        XCTAssertNil(ListRow.changes(from: rows("a"), to: rows("b", "b")))
    }

    func testSubscript() {
        var row = ListRow(id: "1")
        XCTAssertNil(row["name"])
        row["name"] = .string("n")
        XCTAssertEqual(row.fields, ["name": .string("n")])
    }
}
