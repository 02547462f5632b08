@testable import RxWidgets
import XCTest

final class ListRowFewestMovesTests: XCTestCase {
    private func rows(_ ids: [String], tag: String = "") -> [ListRow] {
        ids.map { ListRow(id: $0, fields: tag.isEmpty ? [:] : ["tag": .string(tag)]) }
    }

    func testOneRowMovedFarIsOneMove() {
        let old = rows((0..<10_000).map { "r\($0)" })
        var new = old
        new.append(new.removeFirst())
        XCTAssertEqual(ListRow.changesWithFewestMoves(from: old, to: new), [.move(from: 0, to: 9_999)])
        XCTAssertEqual(ListRow.changes(from: old, to: new)?.count, 9_999, "the walk moves every row the first one passed")
    }

    func testRotatingLeftMovesTheOneRowThatLeftTheRun() {
        XCTAssertEqual(ListRow.changesWithFewestMoves(from: rows(["a", "b", "c"]), to: rows(["b", "c", "a"])),
                       [.move(from: 0, to: 2)])
    }

    func testRemovalsInsertsAndUpdatesAsTheWalkHasThem() {
        let old = rows(["a", "b", "c", "d"])
        let new = [ListRow(id: "d"), ListRow(id: "x"), ListRow(id: "a", fields: ["n": .number(1)]), ListRow(id: "c")]
        let ops = ListRow.changesWithFewestMoves(from: old, to: new)
        XCTAssertEqual(ops, [.remove(index: 1, count: 1), .move(from: 2, to: 0), .insert(index: 1, rows: [new[1]]),
                             .update(index: 2, row: new[2])])
        XCTAssertEqual(ListRow.applying(ops ?? [], to: old), new)
    }

    func testAnyPermutationWithEditsComesOutRight() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let count = Int.random(in: 0...12, using: &generator)
            let old = rows((0..<count).map { "r\($0)" })
            var new = old.filter { _ in Bool.random(using: &generator) || Bool.random(using: &generator) }
            new.shuffle(using: &generator)
            for index in new.indices where Int.random(in: 0..<4, using: &generator) == 0 {
                new[index]["tag"] = .string("changed")
            }
            for extra in 0..<Int.random(in: 0...3, using: &generator) {
                new.insert(ListRow(id: "n\(extra)"), at: Int.random(in: 0...new.count, using: &generator))
            }
            guard let ops = ListRow.changesWithFewestMoves(from: old, to: new) else { return XCTFail("nil for unique ids") }
            XCTAssertEqual(ListRow.applying(ops, to: old), new, "\(old.map(\.id)) -> \(new.map(\.id))")
            let walkMoves = (ListRow.changes(from: old, to: new) ?? []).filter { if case .move = $0 { true } else { false } }
            let moves = ops.filter { if case .move = $0 { true } else { false } }
            XCTAssertLessThanOrEqual(moves.count, walkMoves.count)
        }
    }

    func testDuplicatesAndTooManyMovesGiveNil() {
        XCTAssertNil(ListRow.changesWithFewestMoves(from: rows(["a", "a"]), to: rows(["a"])))
        XCTAssertNil(ListRow.changesWithFewestMoves(from: rows(["a", "b", "c"]), to: rows(["c", "b", "a"]), maximumMoves: 1))
    }

    // MARK: - The head-and-tail shortcut against the general walk

    private func randomEdit(_ old: [ListRow], next: inout Int, using generator: inout some RandomNumberGenerator) -> [ListRow] {
        var new = old
        func fresh() -> ListRow {
            next += 1
            return ListRow(id: "n\(next)")
        }
        switch Int.random(in: 0..<8, using: &generator) {
        case 0: new.insert(contentsOf: (0..<Int.random(in: 1...3, using: &generator)).map { _ in fresh() },
                           at: Int.random(in: 0...new.count, using: &generator))
        case 1:
            if !new.isEmpty {
                let start = Int.random(in: 0..<new.count, using: &generator)
                new.removeSubrange(start..<min(new.count, start + Int.random(in: 1...3, using: &generator)))
            }
        case 2: if let last = new.popLast() { new.insert(last, at: Int.random(in: 0...new.count, using: &generator)) }
        case 3: if !new.isEmpty { new.append(new.remove(at: Int.random(in: 0..<new.count, using: &generator))) }
        case 4: if !new.isEmpty { new[Int.random(in: 0..<new.count, using: &generator)]["tag"] = .string("t\(next)") }
        case 5:
            if new.count > 3 {
                let start = Int.random(in: 0..<(new.count - 2), using: &generator)
                new[start...].shuffle(using: &generator)
                new[new.count - 1]["tag"] = .string("changed")
            }
        case 6:
            if new.count > 2 {
                new.swapAt(Int.random(in: 0..<new.count, using: &generator), Int.random(in: 0..<new.count, using: &generator))
            }
        default: break
        }
        return new
    }

    func testTheShortcutGivesTheGeneralWalksEdits() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            var next = 0
            let old = rows((0..<Int.random(in: 0...30, using: &generator)).map { "r\($0)" })
            let new = randomEdit(old, next: &next, using: &generator)
            let general = ListRow.generalChangesWithFewestMoves(from: old, to: new, maximumMoves: 256)
            XCTAssertEqual(ListRow.changesWithFewestMoves(from: old, to: new), general, "\(old.map(\.id)) -> \(new.map(\.id))")
            XCTAssertEqual(ListRow.changesWithFewestMoves(from: old, to: new, idsAreUnique: true), general)
            XCTAssertEqual(ListRow.changesWithFewestMoves(from: old, to: new, maximumMoves: 1),
                           ListRow.generalChangesWithFewestMoves(from: old, to: new, maximumMoves: 1))
        }
    }

    func testTheShortcutStillFindsDuplicatesInTheUnchangedRows() {
        let old = rows(["a", "b", "a", "c"])
        XCTAssertNil(ListRow.changesWithFewestMoves(from: old, to: old + rows(["d"])))
        XCTAssertNil(ListRow.changesWithFewestMoves(from: rows(["a", "b"]), to: rows(["a", "b", "a"])),
                     "a new row repeating an unchanged row's id")
        XCTAssertNil(ListRow.changesWithFewestMoves(from: rows(["a", "b", "c"]), to: rows(["c", "a", "b", "a"])))
    }

    func testOneInsertOrMoveInTenThousandRowsIsOneOp() {
        let old = rows((0..<10_000).map { "r\($0)" })
        var new = old
        new.insert(ListRow(id: "new"), at: 0)
        XCTAssertEqual(ListRow.changesWithFewestMoves(from: old, to: new, idsAreUnique: true), [.insert(index: 0, rows: [new[0]])])
        new = old
        new.insert(new.removeLast(), at: 0)
        XCTAssertEqual(ListRow.changesWithFewestMoves(from: old, to: new, idsAreUnique: true), [.move(from: 9_999, to: 0)])
        new = old
        new[5_000]["tag"] = .string("x")
        XCTAssertEqual(ListRow.changesWithFewestMoves(from: old, to: new), [.update(index: 5_000, row: new[5_000])])
    }
}
