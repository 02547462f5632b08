import RxTesting
import UIKitCompat
import XCTest

// A master–detail flow as written for iOS: push on modelSelected, a bar button with rx.tap.

final class ContactListViewController: UIViewController {
    let bag = DisposeBag()
    let tableView = UITableView()
    let contacts = BehaviorRelay(value: ["Ada", "Grace"])

    override func viewDidLoad() {
        super.viewDidLoad()
        navigationItem.title = "Contacts"
        let addButton = UIBarButtonItem(barButtonSystemItem: .add)
        navigationItem.rightBarButtonItem = addButton
        addButton.rx.tap
            .withLatestFrom(contacts)
            .map { $0 + ["Contact \($0.count + 1)"] }
            .bind(to: contacts)
            .disposed(by: bag)
        contacts.bind(to: tableView.rx.items) { _, _, name in
            let cell = UITableViewCell(style: .default, reuseIdentifier: nil)
            cell.textLabel?.text = name
            cell.accessoryType = .disclosureIndicator
            return cell
        }.disposed(by: bag)
        tableView.rx.modelSelected(String.self)
            .subscribe(onNext: { [weak self] name in
                let detail = ContactDetailViewController(name: name)
                self?.navigationController?.pushViewController(detail, animated: true)
            })
            .disposed(by: bag)
    }
}

final class ContactDetailViewController: UIViewController {
    let bag = DisposeBag()
    let nameLabel = UILabel()
    let name: String

    init(name: String) {
        self.name = name
        super.init()
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        navigationItem.title = name
        let done = UIBarButtonItem(title: "Done", style: .done)
        navigationItem.leftBarButtonItem = done
        done.rx.tap
            .subscribe(onNext: { [weak self] in _ = self?.navigationController?.popViewController(animated: true) })
            .disposed(by: bag)
        nameLabel.text = name
    }
}

final class UIKitNavigationTests: XCTestCase {
    func testMasterDetailPushAndPop() throws {
        let list = ContactListViewController()
        let navigation = UINavigationController(rootViewController: list)
        XCTAssertEqual(navigation.topViewController?.navigationItem.title, "Contacts")

        try list.navigationItem.rightBarButtonItem!.sendUserEvent(.touchUpInside)
        XCTAssertEqual(list.contacts.value, ["Ada", "Grace", "Contact 3"])

        try list.tableView.receive(WidgetEvent(name: "itemSelected", row: "0.1"))
        let detail = try XCTUnwrap(navigation.topViewController as? ContactDetailViewController)
        XCTAssertEqual(detail.nameLabel.text, "Grace")
        XCTAssertEqual(navigation.viewControllers.count, 2)

        try detail.navigationItem.leftBarButtonItem!.sendUserEvent(.touchUpInside)
        XCTAssertTrue(navigation.topViewController === list)
        XCTAssertNil(detail.navigationController)
    }
}
