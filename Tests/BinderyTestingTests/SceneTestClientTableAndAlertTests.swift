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
}
