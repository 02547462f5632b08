import Foundation
import RxCore
import RxWidgets
import XCTest

final class TableViewTests: XCTestCase {
    private func cell(_ text: String, detail: String? = nil, style: TableViewCell.CellStyle = .default) -> TableViewCell {
        let cell = TableViewCell(style: style, reuseIdentifier: nil)
        cell.textLabel?.text = text
        cell.detailTextLabel?.text = detail
        return cell
    }

    /// A table bound with the closure form to `items`, in a tree.
    private func boundTable(_ items: [String], bag: DisposeBag) -> (TableView, WidgetTree, BehaviorSubject<[String]>) {
        let table = TableView()
        let tree = widgetTestTree(["table": table])
        let source = BehaviorSubject(value: items)
        source.bind(to: table.rx.items) { _, _, element in self.cell(element) }.disposed(by: bag)
        _ = tree.takeChanges()
        return (table, tree, source)
    }

    private func ids(_ table: TableView) -> [String] { table.rows.map(\.id) }

    private func texts(_ table: TableView) -> [String] {
        table.rows.map { row in
            if case .string(let text) = row["text"] { return text }
            return "?"
        }
    }

    // MARK: - rx.items

    func testItemsClosureFormMakesOneRowPerElementKeyedByPosition() {
        let table = TableView()
        let tree = widgetTestTree(["table": table])
        let source = PublishSubject<[String]>()
        var calls: [String] = []
        let subscription = source.bind(to: table.rx.items) { tableView, row, element in
            XCTAssertTrue(tableView === table)
            calls.append("\(row):\(element)")
            return self.cell(element, detail: "#\(row)", style: .subtitle)
        }
        source.onNext(["cat", "dog"])
        XCTAssertEqual(calls, ["0:cat", "1:dog"])
        XCTAssertEqual(ids(table), ["0.0", "0.1"])
        XCTAssertEqual(table.rows[1].fields, ["text": .string("dog"), "detailText": .string("#1"),
                                              "style": .string("subtitle"), "section": .string("0"),
                                              "canMove": .bool(true)])
        XCTAssertEqual(table.sectionRows, [ListRow(id: "0")])
        XCTAssertEqual(widgetTestChanges(tree), ["table.sections = 1 rows", "table.items = 2 rows"])
        XCTAssertEqual(table.numberOfSections, 1)
        XCTAssertEqual(table.numberOfRows(inSection: 0), 2)
        subscription.dispose()
        XCTAssertNil(table.dataSource, "disposing the binding uninstalls its data source")
    }

    func testItemsWithCellIdentifierDequeuesTheRegisteredClass() {
        final class BadgeCell: TableViewCell {}
        let table = TableView()
        table.register(BadgeCell.self, forCellReuseIdentifier: "Badge")
        let bag = DisposeBag()
        var seen: [String] = []
        Observable.just([10, 20])
            .bind(to: table.rx.items(cellIdentifier: "Badge", cellType: BadgeCell.self)) { row, element, cell in
                seen.append("\(row):\(element):\(cell.reuseIdentifier ?? "-")")
                cell.textLabel?.text = "\(element)"
                cell.accessoryType = .disclosureIndicator
                cell.selectionStyle = .none
            }
            .disposed(by: bag)
        XCTAssertEqual(seen, ["0:10:Badge", "1:20:Badge"])
        XCTAssertEqual(table.rows[0]["accessoryType"], .string("disclosureIndicator"))
        XCTAssertEqual(table.rows[0]["selectionStyle"], .string("none"))
    }

    func testDequeueOfAnUnregisteredIdentifierIsABindingErrorNotACrash() {
        let table = TableView(style: .grouped)
        table.id = "t"
        let bag = DisposeBag()
        let errors = widgetTestBindingErrors {
            Observable.just(["a"])
                .bind(to: table.rx.items(cellIdentifier: "Nope", cellType: TableViewCell.self)) { _, element, cell in
                    cell.textLabel?.text = element
                }
                .disposed(by: bag)
        }
        XCTAssertEqual(errors, ["table 't': no cell class registered for identifier 'Nope'"])
        XCTAssertEqual(texts(table), ["a"])
        XCTAssertNil(table.dequeueReusableCell(withIdentifier: "Nope"))
    }

    func testCellStylesHaveUIKitsLabels() {
        XCTAssertNil(TableViewCell(style: .default, reuseIdentifier: nil).detailTextLabel)
        XCTAssertNotNil(TableViewCell(style: .value1, reuseIdentifier: nil).detailTextLabel)
        XCTAssertNil(TableViewCell(style: .value2, reuseIdentifier: nil).imageView)
        let cell = TableViewCell(style: .subtitle, reuseIdentifier: "x")
        cell.imageView?.image = Image(named: "cat.png")
        cell.accessoryType = .detailButton
        XCTAssertEqual(cell.rowFields["image"], .string("images/cat.png"))
        XCTAssertEqual(TableViewCell().rowFields, [:], "a default cell's fields are all defaults, left out")
    }

    func testAnErrorIsABindingErrorAndKeepsTheRows() {
        let bag = DisposeBag()
        var result: (TableView, WidgetTree, BehaviorSubject<[String]>)!
        let errors = widgetTestBindingErrors {
            result = boundTable(["a"], bag: bag)
            result.2.onError(WidgetTestError())
        }
        XCTAssertEqual(errors, ["boom"])
        XCTAssertEqual(texts(result.0), ["a"])
    }

    func testASecondItemsBindingIsReported() {
        let bag = DisposeBag()
        let (table, _, _) = boundTable(["a"], bag: bag)
        table.id = "t"
        let errors = widgetTestBindingErrors {
            Observable.just(["b"]).bind(to: table.rx.items) { _, _, element in self.cell(element) }.disposed(by: bag)
        }
        XCTAssertEqual(errors, ["table 't': an rx.items binding is already active; dispose it before binding another"])
        XCTAssertEqual(texts(table), ["b"], "the newer binding wins, as RxCocoa's in release builds")
    }

    // MARK: - Row events

    func testSelectingARowSelectsItThenSendsItemSelectedAndModelSelected() throws {
        let bag = DisposeBag()
        let (table, tree, _) = boundTable(["a", "b", "c"], bag: bag)
        var log: [String] = []
        table.rx.itemSelected.subscribe(onNext: { path in
            log.append("selected \(path.row) (selection \(table.indexPathForSelectedRow.map { "\($0.row)" } ?? "none"))")
        }).disposed(by: bag)
        table.rx.itemDeselected.subscribe(onNext: { log.append("deselected \($0.row)") }).disposed(by: bag)
        table.rx.modelSelected(String.self).subscribe(onNext: { log.append("model \($0)") }).disposed(by: bag)

        try table.receive(WidgetEvent(name: "itemSelected", row: "0.1"))
        XCTAssertEqual(log, ["selected 1 (selection 1)", "model b"])
        XCTAssertEqual(widgetTestChanges(tree), ["table.selectedRows = [\"0.1\"]"])

        // Single selection: UIKit deselects the other row first, and says so.
        log = []
        try table.receive(WidgetEvent(name: "itemSelected", row: "0.2"))
        XCTAssertEqual(log, ["deselected 1", "selected 2 (selection 2)", "model c"])
        XCTAssertEqual(table.selectedRowKeys, ["0.2"])
        XCTAssertEqual(try table.rx.model(at: IndexPath(row: 0, section: 0)) as String, "a")
    }

    func testMultipleSelectionAddsRowsAndDeselectsOnTheirOwnEvent() throws {
        let bag = DisposeBag()
        let (table, _, _) = boundTable(["a", "b"], bag: bag)
        table.allowsMultipleSelection = true
        var log: [String] = []
        table.rx.itemSelected.subscribe(onNext: { log.append("+\($0.row)") }).disposed(by: bag)
        table.rx.modelDeselected(String.self).subscribe(onNext: { log.append("-\($0)") }).disposed(by: bag)
        try table.receive(WidgetEvent(name: "itemSelected", row: "0.0"))
        try table.receive(WidgetEvent(name: "itemSelected", row: "0.1"))
        XCTAssertEqual(table.indexPathsForSelectedRows, [IndexPath(row: 0, section: 0), IndexPath(row: 1, section: 0)])
        try table.receive(WidgetEvent(name: "itemDeselected", row: "0.0"))
        try table.receive(WidgetEvent(name: "itemDeselected", row: "0.0"))  // not selected: nothing
        XCTAssertEqual(log, ["+0", "+1", "-a"])
        XCTAssertEqual(table.selectedRowKeys, ["0.1"])
    }

    func testDeselectRowInTheSelectionHandlerLeavesNoSelectionChange() throws {
        let bag = DisposeBag()
        let (table, tree, _) = boundTable(["a", "b"], bag: bag)
        table.rx.itemSelected.subscribe(onNext: { table.deselectRow(at: $0, animated: true) }).disposed(by: bag)
        try table.receive(WidgetEvent(name: "itemSelected", row: "0.0"))
        XCTAssertNil(table.indexPathForSelectedRow)
        XCTAssertEqual(widgetTestChanges(tree), [], "selected then deselected in one turn: nothing to send")
    }

    func testProgrammaticSelectionSendsNoEventAndReloadClearsIt() {
        let bag = DisposeBag()
        let (table, _, source) = boundTable(["a", "b"], bag: bag)
        var events = 0
        table.rx.itemSelected.subscribe(onNext: { _ in events += 1 }).disposed(by: bag)
        table.selectRow(at: IndexPath(row: 1, section: 0), animated: false, scrollPosition: .none)
        XCTAssertEqual(table.indexPathForSelectedRow, IndexPath(row: 1, section: 0))
        XCTAssertEqual(events, 0)
        source.onNext(["a", "b", "c"])
        XCTAssertNil(table.indexPathForSelectedRow, "reloadData clears the selection, as UIKit's")
    }

    func testBadRowEventsThrowStableCodesAndChangeNothing() throws {
        let bag = DisposeBag()
        let (table, tree, _) = boundTable(["a", "b"], bag: bag)
        var fired = 0
        table.rx.itemSelected.subscribe(onNext: { _ in fired += 1 }).disposed(by: bag)
        func code(_ event: WidgetEvent) -> String {
            do {
                try table.receive(event)
                return "ok"
            } catch {
                return error.code.rawValue
            }
        }
        XCTAssertEqual(code(WidgetEvent(name: "itemSelected", row: "9.9")), "unknown-row")
        XCTAssertEqual(code(WidgetEvent(name: "itemSelected")), "bad-value")
        XCTAssertEqual(code(WidgetEvent(name: "itemWiggled", row: "0.0")), "unknown-event")
        XCTAssertEqual(code(WidgetEvent(name: "itemAccessoryButtonTapped", row: "0.0")), "unknown-event")
        XCTAssertEqual(code(WidgetEvent(name: "itemMoved", row: "0.0", toSection: "0", toIndex: 1)), "disabled",
                       "rows move only while editing")
        table.setEditing(true, animated: false)
        XCTAssertEqual(code(WidgetEvent(name: "itemMoved", row: "0.0", toSection: "0", toIndex: 2)), "index-out-of-range")
        XCTAssertEqual(code(WidgetEvent(name: "itemMoved", row: "0.0", toSection: "7", toIndex: 0)), "unknown-row")
        XCTAssertEqual(code(WidgetEvent(name: "itemSelected", row: "0.0")), "disabled", "no selection while editing")
        table.setEditing(false, animated: false)
        table.allowsSelection = false
        XCTAssertEqual(code(WidgetEvent(name: "itemSelected", row: "0.0")), "disabled")
        XCTAssertEqual(fired, 0)
        XCTAssertEqual(widgetTestChanges(tree), ["table.allowsSelection = false"])
    }

    func testDeleteAndInsertReportTheRowAndLeaveTheRowsToTheModel() throws {
        let bag = DisposeBag()
        let table = TableView()
        let items = BehaviorRelay(value: ["a", "b"])
        items.bind(to: table.rx.items) { _, _, element in
            let cell = TableViewCell(style: .default, reuseIdentifier: nil)
            cell.textLabel?.text = element
            if element == "+" { cell.editingStyle = .insert }
            return cell
        }.disposed(by: bag)
        var log: [String] = []
        table.rx.modelDeleted(String.self).subscribe(onNext: { log.append("deleted \($0)") }).disposed(by: bag)
        table.rx.itemDeleted.subscribe(onNext: { path in
            var next = items.value
            next.remove(at: path.row)
            items.accept(next)
        }).disposed(by: bag)
        table.rx.itemInserted.subscribe(onNext: { log.append("insert at \($0.row)") }).disposed(by: bag)

        try table.receive(WidgetEvent(name: "itemDeleted", row: "0.0"))
        XCTAssertEqual(log, ["deleted a"], "modelDeleted reads the model before the items change")
        XCTAssertEqual(texts(table), ["b"])
        XCTAssertThrowsError(try table.receive(WidgetEvent(name: "itemInserted", row: "0.0")))
        items.accept(["b", "+"])
        try table.receive(WidgetEvent(name: "itemInserted", row: "0.1"))
        XCTAssertEqual(log, ["deleted a", "insert at 1"])
    }

    func testAccessoryButtonTapsNeedAnAccessoryButton() throws {
        let bag = DisposeBag()
        let table = TableView()
        Observable.just([TableViewCell.AccessoryType.detailButton, .checkmark]).bind(to: table.rx.items) { _, _, type in
            let cell = TableViewCell()
            cell.accessoryType = type
            return cell
        }.disposed(by: bag)
        var taps: [Int] = []
        table.rx.itemAccessoryButtonTapped.subscribe(onNext: { taps.append($0.row) }).disposed(by: bag)
        try table.receive(WidgetEvent(name: "itemAccessoryButtonTapped", row: "0.0"))
        XCTAssertThrowsError(try table.receive(WidgetEvent(name: "itemAccessoryButtonTapped", row: "0.1")))
        XCTAssertEqual(taps, [0])
    }

    func testEditingModeIsAPropertyAndClearsTheSelection() throws {
        let bag = DisposeBag()
        let (table, tree, _) = boundTable(["a"], bag: bag)
        try table.receive(WidgetEvent(name: "itemSelected", row: "0.0"))
        _ = tree.takeChanges()
        Observable.just(true).bind(to: table.rx.isEditing).disposed(by: bag)
        XCTAssertTrue(table.isEditing)
        XCTAssertEqual(widgetTestChanges(tree), ["table.isEditing = true", "table.selectedRows = []"])
        XCTAssertEqual(tree.snapshot()[0].properties["isEditing"], .bool(true))
    }

    func testModelAtWithoutABindingOrOfTheWrongTypeThrows() {
        let table = TableView()
        XCTAssertThrowsError(try table.rx.model(at: IndexPath(row: 0, section: 0)) as String) { error in
            XCTAssertEqual(error as? RxDataSourceError, .itemsNotYetBound)
        }
        let bag = DisposeBag()
        Observable.just([1]).bind(to: table.rx.items) { _, _, _ in TableViewCell() }.disposed(by: bag)
        XCTAssertThrowsError(try table.rx.model(at: IndexPath(row: 0, section: 0)) as String) { error in
            XCTAssertEqual(error as? RxDataSourceError, .castingError(expected: "String", actual: "Int"))
        }
        XCTAssertThrowsError(try table.rx.model(at: IndexPath(row: 5, section: 0)) as Int)
    }

    func testRowEventsCompleteWhenTheTableGoesAndDoNotKeepItAlive() {
        var table: TableView? = TableView()
        weak let weakTable = table
        var completed = false
        let subscription = table!.rx.itemSelected.subscribe(onCompleted: { completed = true })
        table = nil
        XCTAssertNil(weakTable)
        XCTAssertTrue(completed)
        subscription.dispose()
    }
}
