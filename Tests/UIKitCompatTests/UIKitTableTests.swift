import RxTesting
import UIKitCompat
import XCTest

// RxCocoa / RxDataSources table code as written for iOS, with `import UIKitCompat`
// (RxDataSources' types come with it).

final class NumbersViewController: UIViewController {
    let bag = DisposeBag()
    let tableView = UITableView(style: .grouped)
    let detailLabel = UILabel()
    let sections = BehaviorRelay(value: [
        SectionModel(model: "Odd", items: [1, 3, 5]),
        SectionModel(model: "Even", items: [2, 4]),
    ])

    override func viewDidLoad() {
        super.viewDidLoad()
        let dataSource = RxTableViewSectionedReloadDataSource<SectionModel<String, Int>>(
            configureCell: { _, tableView, indexPath, number in
                let cell = tableView.dequeueReusableCell(withIdentifier: "Cell", for: indexPath)
                cell.textLabel?.text = "\(number)"
                cell.detailTextLabel?.text = "row \(indexPath.row)"
                cell.accessoryType = .disclosureIndicator
                return cell
            },
            titleForHeaderInSection: { dataSource, index in dataSource.sectionModels[index].model })
        dataSource.titleForFooterInSection = { dataSource, index in "\(dataSource[index].items.count) numbers" }
        tableView.register(ValueCell.self, forCellReuseIdentifier: "Cell")

        sections.bind(to: tableView.rx.items(dataSource: dataSource)).disposed(by: bag)

        tableView.rx.modelSelected(Int.self)
            .map { "You picked \($0)" }
            .bind(to: detailLabel.rx.text)
            .disposed(by: bag)
        tableView.rx.itemSelected
            .subscribe(onNext: { [tableView] indexPath in tableView.deselectRow(at: indexPath, animated: true) })
            .disposed(by: bag)
        tableView.rx.itemDeleted
            .subscribe(onNext: { [sections] indexPath in
                var value = sections.value
                value[indexPath.section].items.remove(at: indexPath.row)
                sections.accept(value)
            })
            .disposed(by: bag)
    }
}

final class ValueCell: UITableViewCell {
    required init(style: UITableViewCell.CellStyle, reuseIdentifier: String?) {
        super.init(style: .value1, reuseIdentifier: reuseIdentifier)
        selectionStyle = .gray
    }
}

final class ContactsViewController: UIViewController {
    let bag = DisposeBag()
    let tableView = UITableView()
    let names = Observable.just(["Ada", "Grace", "Linus"])
    var tapped: [String] = []

    override func viewDidLoad() {
        super.viewDidLoad()
        tableView.register(UITableViewCell.self, forCellReuseIdentifier: "Contact")
        names
            .bind(to: tableView.rx.items(cellIdentifier: "Contact", cellType: UITableViewCell.self)) { row, name, cell in
                cell.textLabel?.text = name
                cell.accessoryType = row == 0 ? .detailDisclosureButton : .none
            }
            .disposed(by: bag)
        tableView.rx.itemAccessoryButtonTapped
            .subscribe(onNext: { [unowned self] indexPath in
                self.tapped.append(try! self.tableView.rx.model(at: indexPath))
            })
            .disposed(by: bag)
        tableView.rx.itemMoved
            .subscribe(onNext: { [unowned self] event in
                self.tapped.append("moved \(event.sourceIndex.row) to \(event.destinationIndex.row)")
            })
            .disposed(by: bag)
    }
}

final class UIKitTableTests: XCTestCase {
    func testSectionedReloadDataSourceWithModelSelected() throws {
        let controller = NumbersViewController()
        controller.loadViewIfNeeded()
        let table = controller.tableView
        XCTAssertEqual(table.numberOfSections, 2)
        XCTAssertEqual(table.numberOfRows(inSection: 0), 3)
        XCTAssertEqual(table.sectionRows[1]["header"], .string("Even"))
        XCTAssertEqual(table.sectionRows[1]["footer"], .string("2 numbers"))
        XCTAssertEqual(table.row(at: IndexPath(row: 1, section: 1))?.fields,
                       ["text": .string("4"), "detailText": .string("row 1"), "style": .string("value1"),
                        "accessoryType": .string("disclosureIndicator"), "selectionStyle": .string("gray"),
                        "section": .string("1"), "canMove": .bool(true)])

        try table.receive(WidgetEvent(name: "itemSelected", row: "1.0"))
        XCTAssertEqual(controller.detailLabel.text, "You picked 2")
        XCTAssertNil(table.indexPathForSelectedRow, "the itemSelected handler deselected it")

        try table.receive(WidgetEvent(name: "itemDeleted", row: "0.1"))
        XCTAssertEqual(controller.sections.value.map(\.items), [[1, 5], [2, 4]])
        XCTAssertEqual(table.numberOfRows(inSection: 0), 2)
    }

    func testCellIdentifierFormAccessoryButtonAndMoves() throws {
        let controller = ContactsViewController()
        controller.loadViewIfNeeded()
        let table = controller.tableView
        try table.receive(WidgetEvent(name: "itemAccessoryButtonTapped", row: "0.0"))
        table.setEditing(true, animated: true)
        try table.receive(WidgetEvent(name: "itemMoved", row: "0.2", toSection: "0", toIndex: 0))
        XCTAssertEqual(controller.tapped, ["Ada", "moved 2 to 0"])
        XCTAssertEqual(table.rows.map(\.id), ["0.2", "0.0", "0.1"])
    }

    func testTableNamesAreTheWidgets() {
        XCTAssertTrue(UITableView.self == TableView.self)
        XCTAssertTrue(UITableViewCell.self == TableViewCell.self)
        let cell = UITableViewCell(style: .subtitle, reuseIdentifier: "x")
        cell.selectionStyle = .none
        cell.accessoryType = .checkmark
        XCTAssertEqual(cell.rowFields["accessoryType"], .string("checkmark"))
        XCTAssertEqual(IndexPath(row: 2, section: 1).section, 1)
    }
}
