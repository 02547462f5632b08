import Foundation
import RxCore
import RxWidgets
import XCTest

private struct Pet: IdentifiableType, Equatable {
    let name: String
    var age: Int
    var identity: String { name }
}

private typealias PetSection = AnimatableSectionModel<String, Pet>

final class RxTableViewSectionedDataSourceTests: XCTestCase {
    private func textCell(_ text: String) -> TableViewCell {
        let cell = TableViewCell(style: .value1, reuseIdentifier: nil)
        cell.textLabel?.text = text
        return cell
    }

    private func texts(_ table: TableView) -> [String] {
        table.rows.map { row in
            if case .string(let text) = row["text"] { return text }
            return "?"
        }
    }

    // MARK: - Reload

    private func reloadDataSource() -> RxTableViewSectionedReloadDataSource<SectionModel<String, Int>> {
        RxTableViewSectionedReloadDataSource<SectionModel<String, Int>>(
            configureCell: { _, _, indexPath, item in self.textCell("\(indexPath.section).\(indexPath.row)=\(item)") },
            titleForHeaderInSection: { dataSource, section in dataSource.sectionModels[section].model },
            titleForFooterInSection: { dataSource, section in "\(dataSource[section].items.count) items" },
            canEditRowAtIndexPath: { dataSource, indexPath in dataSource[indexPath] != 0 })
    }

    func testReloadDataSourceShowsSectionsWithTitlesAndRows() throws {
        let table = TableView()
        let tree = widgetTestTree(["table": table])
        let dataSource = reloadDataSource()
        let bag = DisposeBag()
        Observable.just([SectionModel(model: "Odd", items: [1, 3]), SectionModel(model: "Even", items: [0])])
            .bind(to: table.rx.items(dataSource: dataSource))
            .disposed(by: bag)

        XCTAssertEqual(table.sectionRows, [
            ListRow(id: "0", fields: ["header": .string("Odd"), "footer": .string("2 items")]),
            ListRow(id: "1", fields: ["header": .string("Even"), "footer": .string("1 items")]),
        ])
        XCTAssertEqual(table.rows.map(\.id), ["0.0", "0.1", "1.0"])
        XCTAssertEqual(texts(table), ["0.0=1", "0.1=3", "1.0=0"])
        XCTAssertEqual(table.rows[2]["section"], .string("1"))
        XCTAssertEqual(table.rows[2]["canEdit"], .bool(false))
        XCTAssertNil(table.rows[0]["canEdit"])
        XCTAssertEqual(table.rows[0]["canMove"], .bool(true), "RxDataSources lets every row move by default")
        XCTAssertEqual(dataSource[IndexPath(row: 1, section: 0)], 3)
        XCTAssertEqual(dataSource.sectionModels.map(\.items), [[1, 3], [0]])
        XCTAssertEqual(try table.rx.model(at: IndexPath(row: 0, section: 1)) as Int, 0)
        XCTAssertThrowsError(try dataSource.model(at: IndexPath(row: 2, section: 0))) { error in
            XCTAssertEqual(error as? RxDataSourceError, .outOfBounds(indexPath: IndexPath(row: 2, section: 0)))
        }
        XCTAssertEqual(table.indexPath(forRowKey: "1.0"), IndexPath(row: 0, section: 1))
        XCTAssertEqual(widgetTestChanges(tree), ["table.sections = 2 rows", "table.items = 3 rows"])
    }

    func testARowThatCannotBeEditedCannotBeDeleted() throws {
        let table = TableView()
        let bag = DisposeBag()
        Observable.just([SectionModel(model: "", items: [0, 1])])
            .bind(to: table.rx.items(dataSource: reloadDataSource())).disposed(by: bag)
        var deleted: [Int] = []
        table.rx.modelDeleted(Int.self).subscribe(onNext: { deleted.append($0) }).disposed(by: bag)
        XCTAssertThrowsError(try table.receive(WidgetEvent(name: "itemDeleted", row: "0.0"))) { error in
            XCTAssertEqual((error as? WidgetInputError)?.code, .disabled)
        }
        try table.receive(WidgetEvent(name: "itemDeleted", row: "0.1"))
        XCTAssertEqual(deleted, [1])
    }

    func testAMoveUpdatesTheModelThenTheRowsThenSendsItemMoved() throws {
        let table = TableView()
        let tree = widgetTestTree(["table": table])
        let dataSource = reloadDataSource()
        let bag = DisposeBag()
        Observable.just([SectionModel(model: "A", items: [1, 2, 3]), SectionModel(model: "B", items: [4])])
            .bind(to: table.rx.items(dataSource: dataSource)).disposed(by: bag)
        table.setEditing(true, animated: false)
        _ = tree.takeChanges()
        var log: [String] = []
        table.rx.itemMoved.subscribe(onNext: { event in
            log.append("moved \(event.sourceIndex) -> \(event.destinationIndex); model \(dataSource.sectionModels.map(\.items))")
        }).disposed(by: bag)

        // Row "0.0" (1) to the end of section B.
        try table.receive(WidgetEvent(name: "itemMoved", row: "0.0", toSection: "1", toIndex: 1))
        XCTAssertEqual(log, ["moved [0, 0] -> [1, 1]; model [[2, 3], [4, 1]]"])
        XCTAssertEqual(table.rows.map(\.id), ["0.1", "0.2", "1.0", "0.0"], "the row keeps its key")
        XCTAssertEqual(table.rows[3]["section"], .string("1"))
        XCTAssertEqual(table.numberOfRows(inSection: 0), 2)
        XCTAssertEqual(table.numberOfRows(inSection: 1), 2)
        XCTAssertEqual(table.indexPath(forRowKey: "0.0"), IndexPath(row: 1, section: 1))
        XCTAssertEqual(widgetTestChanges(tree), ["table.items = 4 rows"])

        // Within a section, the destination counts after removing the row (UIKit's rule).
        try table.receive(WidgetEvent(name: "itemMoved", row: "0.1", toSection: "0", toIndex: 1))
        XCTAssertEqual(dataSource.sectionModels.map(\.items), [[3, 2], [4, 1]])
        XCTAssertThrowsError(try table.receive(WidgetEvent(name: "itemMoved", row: "0.1", toSection: "0", toIndex: 2)))
    }

    // MARK: - Animated

    private func animated(_ configured: WidgetTestBox<[String]>) -> RxTableViewSectionedAnimatedDataSource<PetSection> {
        RxTableViewSectionedAnimatedDataSource<PetSection>(
            configureCell: { _, _, _, pet in
                configured.value.append(pet.name)
                let cell = TableViewCell(style: .subtitle, reuseIdentifier: nil)
                cell.textLabel?.text = pet.name
                cell.detailTextLabel?.text = "\(pet.age)"
                return cell
            },
            titleForHeaderInSection: { dataSource, section in dataSource[section].model })
    }

    func testAnimatedDataSourceKeysRowsByIdentityAndConfiguresOnlyNewOrChangedItems() throws {
        let table = TableView()
        let tree = widgetTestTree(["table": table])
        let configured = WidgetTestBox<[String]>([])
        let source = BehaviorSubject(value: [PetSection(model: "Cats", items: [Pet(name: "Tom", age: 3), Pet(name: "Kit", age: 1)])])
        let bag = DisposeBag()
        source.bind(to: table.rx.items(dataSource: animated(configured))).disposed(by: bag)
        XCTAssertEqual(configured.value, ["Tom", "Kit"])
        XCTAssertEqual(table.rows.map(\.id), ["Tom", "Kit"])
        XCTAssertEqual(table.sectionRows.map(\.id), ["Cats"])
        try table.receive(WidgetEvent(name: "itemSelected", row: "Kit"))
        _ = tree.takeChanges()

        configured.value = []
        source.onNext([PetSection(model: "Cats", items: [Pet(name: "Ada", age: 2), Pet(name: "Kit", age: 2), Pet(name: "Tom", age: 3)])])
        XCTAssertEqual(configured.value, ["Ada", "Kit"], "Tom is unchanged: its cell is not configured again")
        XCTAssertEqual(table.rows.map(\.id), ["Ada", "Kit", "Tom"])
        XCTAssertEqual(table.rows[1]["detailText"], .string("2"))
        XCTAssertEqual(table.selectedRowKeys, ["Kit"], "a batch update keeps the selection on its row")
        XCTAssertEqual(table.indexPathForSelectedRow, IndexPath(row: 1, section: 0))
        let changes = tree.takeChanges()
        XCTAssertEqual(changes.map(\.description), ["table.items = 3 rows"])
        guard case .rows(let old) = changes[0].oldValue, case .rows(let new) = changes[0].value else {
            return XCTFail("rows expected")
        }
        let ops = ListRow.changes(from: old, to: new) ?? []
        XCTAssertEqual(ops.count, 3, "\(ops)")
        XCTAssertTrue(ops.contains(.insert(index: 0, rows: [new[0]])))
        XCTAssertTrue(ops.contains(.move(from: 2, to: 1)), "Kit moves, as Differentiator moves it")
        XCTAssertTrue(ops.contains(.update(index: 1, row: new[1])))
    }

    func testAnimatedDataSourceFallsBackToAReloadOnDuplicateIdentities() {
        let table = TableView()
        let configured = WidgetTestBox<[String]>([])
        let source = BehaviorSubject(value: [PetSection(model: "Cats", items: [Pet(name: "Tom", age: 3)])])
        let bag = DisposeBag()
        source.bind(to: table.rx.items(dataSource: animated(configured))).disposed(by: bag)
        source.onNext([PetSection(model: "Cats", items: [Pet(name: "Tom", age: 3), Pet(name: "Tom", age: 4)])])
        XCTAssertEqual(table.rows.map(\.id), ["0.0", "0.1"], "positional keys when identities repeat")
        source.onNext([PetSection(model: "Cats", items: [Pet(name: "Tom", age: 3), Pet(name: "Ann", age: 4)])])
        XCTAssertEqual(table.rows.map(\.id), ["Tom", "Ann"],
                       "the old data had duplicates: a reload again, keyed by identity now they are unique")
        configured.value = []
        source.onNext([PetSection(model: "Cats", items: [Pet(name: "Ann", age: 4), Pet(name: "Tom", age: 3)])])
        XCTAssertEqual(table.rows.map(\.id), ["Ann", "Tom"])
        XCTAssertEqual(configured.value, [], "a keyed update again: a move configures nothing")
    }

    func testOneInsertIntoTenThousandRowsIsOneKeyedInsert() {
        let table = TableView()
        let tree = widgetTestTree(["table": table])
        let configured = WidgetTestBox<[String]>([])
        let pets = (0..<10_000).map { Pet(name: "pet-\($0)", age: $0 % 20) }
        let source = BehaviorSubject(value: [PetSection(model: "All", items: pets)])
        let bag = DisposeBag()
        source.bind(to: table.rx.items(dataSource: animated(configured))).disposed(by: bag)
        _ = tree.takeChanges()
        configured.value = []
        var more = pets
        more.insert(Pet(name: "newcomer", age: 0), at: 5_000)
        source.onNext([PetSection(model: "All", items: more)])
        XCTAssertEqual(configured.value, ["newcomer"])
        let changes = tree.takeChanges()
        XCTAssertEqual(changes.count, 1)
        guard case .rows(let old) = changes[0].oldValue, case .rows(let new) = changes[0].value else {
            return XCTFail("rows expected")
        }
        XCTAssertEqual(ListRow.changes(from: old, to: new), [.insert(index: 5_000, rows: [new[5_000]])])
    }
}
