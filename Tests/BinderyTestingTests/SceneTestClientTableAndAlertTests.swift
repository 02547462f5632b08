import Bindery
import BinderyTesting
import Foundation
import RxCore
import RxTesting
import RxWidgets
import XCTest

private struct Task: IdentifiableType, Equatable {
    let name: String
    var done = false
    var identity: String { name }
}

/// A to-do table (animated data source) whose rows can be deleted and moved; a button
/// asks for a new task in an alert.
private final class TasksViewController: ViewController {
    let bag = DisposeBag()
    let table = TableView()
    let add = Button()
    let tasks = BehaviorRelay(value: [AnimatableSectionModel(model: "Today", items: [Task(name: "a"), Task(name: "b"), Task(name: "c")])])

    override func viewDidLoad() {
        super.viewDidLoad()
        table.setEditing(true, animated: false)
        let dataSource = RxTableViewSectionedAnimatedDataSource<AnimatableSectionModel<String, Task>>(configureCell: { _, _, _, task in
            let cell = TableViewCell()
            cell.textLabel?.text = task.name
            cell.accessoryType = task.done ? .checkmark : .none
            return cell
        })
        tasks.bind(to: table.rx.items(dataSource: dataSource)).disposed(by: bag)
        table.rx.itemDeleted.subscribe(onNext: { [tasks] path in
            var sections = tasks.value
            sections[path.section].items.remove(at: path.row)
            tasks.accept(sections)
        }).disposed(by: bag)
        table.rx.itemMoved.subscribe(onNext: { [tasks, dataSource] _ in
            tasks.accept(dataSource.sectionModels)
        }).disposed(by: bag)
        add.rx.tap.subscribe(onNext: { [unowned self] in
            let alert = AlertController(title: "New task", message: nil, preferredStyle: .alert)
            alert.addTextField()
            alert.addAction(AlertAction(title: "Cancel", style: .cancel))
            alert.addAction(AlertAction(title: "Add", style: .default) { [tasks] _ in
                var sections = tasks.value
                sections[0].items.insert(Task(name: alert.textFields?[0].text ?? "?"), at: 0)
                tasks.accept(sections)
            })
            self.present(alert, animated: true)
        }).disposed(by: bag)
    }
}

/// The test client keeps a table and an alert in step with the server through keyed ops
/// and added/removed widgets.
final class SceneTestClientTableAndAlertTests: XCTestCase {
    func testRowEventsAndAnAlertLeaveTheClientInStepWithTheServer() throws {
        let registry = SceneRegistry()
        registry.register("tasks", title: "Tasks") { TasksViewController() }
        let client = try SceneTestClient(scene: "tasks", registry: registry)
        func names() -> [String] { client.widget("table")?.rows?.map(\.id) ?? [] }

        _ = client.send(text: #"{"type":"event","seq":100,"target":"table","event":"itemMoved","row":"c","toSection":"Today","toIndex":0}"#)
        XCTAssertEqual(names(), ["c", "a", "b"])
        _ = client.send(text: #"{"type":"event","seq":101,"target":"table","event":"itemDeleted","row":"a"}"#)
        XCTAssertEqual(names(), ["c", "b"])

        client.tap("add")
        let alert = try XCTUnwrap(client.widgets.first { $0.kind == "alertController" })
        guard case .strings(let fields)? = alert["textFields"] else { return XCTFail("text fields expected") }
        client.type("milk", into: fields[0])
        _ = client.send(text: #"{"type":"event","seq":102,"target":"\#(alert.id)","event":"actionTriggered","action":1}"#)
        XCTAssertNil(client.widget(alert.id), "the dismissed alert is gone from the client")
        XCTAssertNil(client.widget(fields[0]))
        XCTAssertEqual(names(), ["milk", "c", "b"])
        XCTAssertEqual(client.divergence(), [])
    }

    /// The same steps through the helpers: no JSON, no `seq` by hand.
    func testRowAndAlertHelpersKeepSeqAndActAsTheBrowserDoes() throws {
        let registry = SceneRegistry()
        registry.register("tasks", title: "Tasks") { TasksViewController() }
        let client = try SceneTestClient(scene: "tasks", registry: registry)
        func names() -> [String] { client.widget("table")?.rows?.map(\.id) ?? [] }

        XCTAssertEqual(client.move(row: "c", in: "table", toSection: "Today", toIndex: 0).errorCode, nil)
        XCTAssertEqual(names(), ["c", "a", "b"])
        XCTAssertEqual(client.delete(row: "a", in: "table").errorCode, nil)
        XCTAssertEqual(names(), ["c", "b"])
        XCTAssertEqual(client.delete(row: "nope", in: "table").errorCode, "unknown-row")
        XCTAssertEqual(client.move(row: "c", in: "table", toSection: "Today", toIndex: 9).errorCode, "index-out-of-range")

        XCTAssertNil(client.presentedAlert)
        XCTAssertThrowsError(try client.chooseAlertAction("Add")) { error in
            XCTAssertEqual("\(error)", "no alert is presented (wanted its action 'Add')")
        }
        client.tap("add")
        XCTAssertEqual(client.alertActionTitles, ["Cancel", "Add"])
        XCTAssertThrowsError(try client.chooseAlertAction("OK")) { error in
            XCTAssertEqual("\(error)", "the alert has no action 'OK' (it has 'Cancel', 'Add')")
        }
        XCTAssertThrowsError(try client.chooseAlertAction("Add", texts: ["a", "b"]))
        let alert = try XCTUnwrap(client.presentedAlert)
        let answer = try client.chooseAlertAction("Add", texts: ["milk"])
        XCTAssertEqual(answer.errorCode, nil, "\(answer)")
        XCTAssertNil(client.widget(alert.id), "the dismissed alert is gone from the client")
        XCTAssertNil(client.presentedAlert)
        XCTAssertEqual(names(), ["milk", "c", "b"], "the text went with the action")

        // Every event got its own seq, and each answer acknowledged its own.
        let acks = client.answers.compactMap { answer -> Int? in
            switch answer {
            case .patch(let patch): return patch.ack
            case .error(let error): return error.ack
            case .noAnswer: return nil
            }
        }
        XCTAssertEqual(acks, Array(1...acks.count))
        XCTAssertEqual(client.divergence(), [])
    }

    func testSelectAndGoBackThroughANavigationController() throws {
        let registry = SceneRegistry()
        registry.register("people", title: "People") { NavigationController(rootViewController: PeopleViewController()) }
        let client = try SceneTestClient(scene: "people", registry: registry)
        XCTAssertEqual(client.screens(), ["screen-1"])
        XCTAssertThrowsError(try client.goBack(in: "nowhere"))
        XCTAssertEqual(try client.goBack().errorCode, "disabled", "nothing to go back to at the root")

        XCTAssertEqual(client.select(row: "0.1", in: "people").errorCode, nil)
        XCTAssertEqual(client.screens(), ["screen-1", "screen-2"])
        XCTAssertEqual(client.widget("screen-2.name")?.text, "Grace")
        XCTAssertEqual(try client.goBack().errorCode, nil)
        XCTAssertEqual(client.screens(), ["screen-1"])
        XCTAssertNil(client.widget("screen-2.name"), "the popped screen's widgets are gone")
        XCTAssertEqual(client.divergence(), [])
    }
}

/// A list of people; selecting one pushes their screen.
private final class PeopleViewController: ViewController {
    let bag = DisposeBag()
    let people = TableView()

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "People"
        people.register(TableViewCell.self, forCellReuseIdentifier: "person")
        Observable.just(["Ada", "Grace", "Edsger"])
            .bind(to: people.rx.items(cellIdentifier: "person")) { _, name, cell in cell.textLabel?.text = name }
            .disposed(by: bag)
        people.rx.modelSelected(String.self)
            .subscribe(onNext: { [unowned self] name in
                self.navigationController?.pushViewController(PersonViewController(name: name), animated: true)
            })
            .disposed(by: bag)
    }
}

private final class PersonViewController: ViewController {
    let name = Label()
    private let person: String

    init(name: String) {
        person = name
        super.init()
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        title = person
        name.text = person
    }
}
