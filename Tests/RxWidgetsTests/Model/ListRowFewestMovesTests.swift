import RxWidgets
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
}
