import RxWidgets
import XCTest

/// An item whose identity is its id and whose value may change.
private struct Row: IdentifiableType, Equatable, CustomStringConvertible {
    let id: String
    var value = 0
    var identity: String { id }
    var description: String { id }
}

private typealias Section = AnimatableSectionModel<String, Row>

private func sections(_ spec: KeyValuePairs<String, [String]>) -> [Section] {
    spec.map { Section(model: $0.key, items: $0.value.map { Row(id: $0) }) }
}

private func path(_ section: Int, _ item: Int) -> ItemPath {
    ItemPath(sectionIndex: section, itemIndex: item)
}

/// Every step's changes as short strings, in order.
private func describe(_ steps: [Changeset<Section>]) -> [String] {
    steps.map { step in
        var parts: [String] = []
        if !step.deletedSections.isEmpty { parts.append("deleteSections \(step.deletedSections)") }
        if !step.deletedItems.isEmpty { parts.append("delete \(step.deletedItems)") }
        if !step.updatedItems.isEmpty { parts.append("update \(step.updatedItems)") }
        if !step.insertedSections.isEmpty { parts.append("insertSections \(step.insertedSections)") }
        if !step.movedSections.isEmpty { parts.append("moveSections \(step.movedSections.map { "\($0.from)->\($0.to)" })") }
        if !step.insertedItems.isEmpty { parts.append("insert \(step.insertedItems)") }
        if !step.movedItems.isEmpty { parts.append("move \(step.movedItems.map { "\($0.from)->\($0.to)" })") }
        return parts.joined(separator: "; ")
    }
}

final class DiffTests: XCTestCase {
    private func diff(_ from: [Section], _ to: [Section]) throws -> [String] {
        let steps = try Diff.differencesForSectionedView(initialSections: from, finalSections: to)
        // Applying the steps in turn must end at `to`.
        XCTAssertEqual(steps.last?.finalSections.map(\.items) ?? from.map(\.items), to.map(\.items))
        return describe(steps)
    }

    func testNoChangeIsNoStep() throws {
        XCTAssertEqual(try diff(sections(["s": ["a", "b"]]), sections(["s": ["a", "b"]])), [])
    }

    func testRotatingLeftMovesTheRowsThatPassTheFirstOneNotTheFirstOne() throws {
        // Differentiator walks the new order: B and C are not the first unplaced old
        // row (A), so they move; A then follows by itself.
        XCTAssertEqual(try diff(sections(["s": ["a", "b", "c"]]), sections(["s": ["b", "c", "a"]])),
                       ["move [\"(0, 1)->(0, 0)\", \"(0, 2)->(0, 1)\"]"])
    }

    func testRotatingRightMovesOnlyTheLastRow() throws {
        XCTAssertEqual(try diff(sections(["s": ["a", "b", "c"]]), sections(["s": ["c", "a", "b"]])),
                       ["move [\"(0, 2)->(0, 0)\"]"])
    }

    func testAnInsertInTheMiddleMovesNothing() throws {
        XCTAssertEqual(try diff(sections(["s": ["a", "b", "c"]]), sections(["s": ["a", "x", "b", "c"]])),
                       ["insert [(0, 1)]"])
    }

    func testDeletesAndUpdatesComeFirstWithOldPaths() throws {
        var to = sections(["s": ["a", "c"]])
        to[0].items[1].value = 7
        XCTAssertEqual(try diff(sections(["s": ["a", "b", "c"]]), to),
                       ["delete [(0, 1)]; update [(0, 2)]"])
    }

    func testAMoveAcrossSectionsAlsoMovesTheRowsThatPassedIt() throws {
        // `a` leaves section one; `b` is placed before `a` is, so `b` is not the first
        // unplaced old row of its section and moves too (Differentiator's rule).
        XCTAssertEqual(try diff(sections(["one": ["a", "b"], "two": ["c", "d"]]),
                                sections(["one": ["b"], "two": ["c", "a", "d"]])),
                       ["move [\"(0, 1)->(0, 0)\", \"(0, 0)->(1, 1)\"]"])
        XCTAssertEqual(try diff(sections(["one": ["a", "b"], "two": ["c"]]),
                                sections(["one": ["a"], "two": ["c", "b"]])),
                       ["move [\"(0, 1)->(1, 1)\"]"], "the last row leaving passes nobody")
    }

    func testSectionMovesFollowTheSameRule() throws {
        XCTAssertEqual(try diff(sections(["x": [], "y": [], "z": []]), sections(["z": [], "x": [], "y": []])),
                       ["moveSections [\"2->0\"]"])
    }

    func testARowGoingIntoANewSectionIsDeletedAndInsertedWithIt() throws {
        XCTAssertEqual(try diff(sections(["old": ["a", "b"]]), sections(["old": ["b"], "new": ["a"]])),
                       ["delete [(0, 0)]", "insertSections [1]"])
    }

    func testDeletedSectionsTakeTheirRowsWithThem() throws {
        XCTAssertEqual(try diff(sections(["x": ["a"], "y": ["b"]]), sections(["y": ["b", "c"]])),
                       ["deleteSections [0]", "insert [(0, 1)]"])
    }

    func testDuplicateIdentitiesCannotBeDiffed() {
        XCTAssertThrowsError(try diff(sections(["s": ["a", "a"]]), sections(["s": ["a"]])))
        XCTAssertThrowsError(try diff(sections(["s": ["a"]]), sections(["s": ["a"], "t": ["a"]])))
        XCTAssertThrowsError(try diff(sections(["s": [], "s ": []]), sections(["s": [], "s": []])))
    }

    func testListViewsWalkAgreesWithDifferentiatorOnMovesWithinASection() throws {
        // ListRow.changes (the walk) moves the rows Differentiator moves. (The wire moves
        // the fewest rows instead: ListRow.changesWithFewestMoves.)
        let cases: [([String], [String])] = [
            (["a", "b", "c"], ["b", "c", "a"]), (["a", "b", "c"], ["c", "a", "b"]),
            (["a", "b", "c", "d", "e"], ["e", "d", "c", "b", "a"]), (["a", "b", "c", "d"], ["b", "x", "d", "a"]),
        ]
        for (from, to) in cases {
            let steps = try Diff.differencesForSectionedView(initialSections: sections(["s": from]),
                                                            finalSections: sections(["s": to]))
            let differentiatorMoved = Set(steps.flatMap(\.movedItems).map { to[$0.to.itemIndex] })
            let ops = ListRow.changes(from: from.map { ListRow(id: $0) }, to: to.map { ListRow(id: $0) }) ?? []
            var current = from.map { ListRow(id: $0) }
            var opsMoved = Set<String>()
            for op in ops {
                if case .move(let source, _) = op { opsMoved.insert(current[source].id) }
                current = ListRow.applying([op], to: current)
            }
            XCTAssertEqual(opsMoved, differentiatorMoved, "\(from) -> \(to)")
        }
    }
}
