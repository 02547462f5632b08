@testable import Bindery
import RxWidgets
import XCTest

/// A batch of outbox patches merged for a viewer: the same end state as applying each in turn.
final class SharedScenePatchBatchTests: XCTestCase {
    private let base = [
        WidgetSnapshot(id: "slider", kind: "slider", properties: ["value": .number(0)]),
        WidgetSnapshot(id: "list", kind: "table", properties: ["items": .rows([ListRow(id: "a"), ListRow(id: "b")])]),
    ]

    private func applied(_ patches: [PatchMessage]) -> [WidgetSnapshot] {
        var mirror = SharedSceneMirror(widgets: base)
        for patch in patches { mirror.apply(patch) }
        return mirror.widgets
    }

    func testALaterValueReplacesAnEarlierOneInOneChange() {
        let patches = (1...5).map { PatchMessage(changes: [PatchChange(target: "slider", prop: "value", value: .number(Double($0)))]) }
        let merged = SharedScenePatchBatch.merge(patches)
        XCTAssertEqual(merged, [PatchMessage(changes: [PatchChange(target: "slider", prop: "value", value: .number(5))])])
        XCTAssertEqual(applied(merged), applied(patches))
    }

    func testListOperationsAreKeptInOrderAndFoldedIntoAFullList() {
        let patches = [
            PatchMessage(changes: [PatchChange(target: "list", prop: "items", update: .ops([.remove(index: 0, count: 1)]))]),
            PatchMessage(changes: [PatchChange(target: "slider", prop: "value", value: .number(1)),
                                   PatchChange(target: "list", prop: "items", update: .ops([.insert(index: 1, rows: [ListRow(id: "c")])]))]),
            PatchMessage(changes: [PatchChange(target: "list", prop: "items", value: .rows([ListRow(id: "x")]))]),
            PatchMessage(changes: [PatchChange(target: "list", prop: "items", update: .ops([.insert(index: 0, rows: [ListRow(id: "y")])]))]),
        ]
        let opsOnly = SharedScenePatchBatch.merge(Array(patches.prefix(2)))
        XCTAssertEqual(opsOnly.count, 1)
        XCTAssertEqual(opsOnly[0].changes.first?.update,
                       .ops([.remove(index: 0, count: 1), .insert(index: 1, rows: [ListRow(id: "c")])]))
        XCTAssertEqual(applied(opsOnly), applied(Array(patches.prefix(2))))

        let merged = SharedScenePatchBatch.merge(patches)
        XCTAssertEqual(merged.count, 1)
        XCTAssertEqual(merged[0].changes.count, 2, "one change per widget property")
        XCTAssertEqual(applied(merged), applied(patches))
    }

    func testAddedOrRemovedWidgetsStartANewPatch() {
        let alert = WidgetSnapshot(id: "alert", kind: "alert", properties: ["title": .string("Hi")])
        let patches = [
            PatchMessage(changes: [PatchChange(target: "slider", prop: "value", value: .number(1))]),
            PatchMessage(added: [alert], changes: [PatchChange(target: "slider", prop: "value", value: .number(2))]),
            PatchMessage(changes: [PatchChange(target: "alert", prop: "title", value: .string("Bye"))]),
            PatchMessage(removed: ["alert"], changes: []),
        ]
        let merged = SharedScenePatchBatch.merge(patches)
        XCTAssertEqual(merged.count, 3)
        XCTAssertEqual(merged.map(\.added.count), [0, 1, 0])
        XCTAssertEqual(merged.map(\.removed), [[], [], ["alert"]])
        XCTAssertEqual(applied(merged), applied(patches))
    }
}
