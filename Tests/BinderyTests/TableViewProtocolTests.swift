import Bindery
import Foundation
import RxCore
import RxTesting
import RxWidgets
import XCTest

private struct Pet: IdentifiableType, Equatable {
    let name: String
    var identity: String { name }
}

/// A sectioned pet table (animated data source), a label with the last selected pet, a
/// button that adds one; editing is on so rows can move.
private final class PetsViewController: ViewController, Scene {
    let bag = DisposeBag()
    let table = TableView()
    let selected = Label()
    let add = Button()
    let pets: BehaviorRelay<[AnimatableSectionModel<String, Pet>]>

    init(count: Int) {
        let cats = (0..<count).map { Pet(name: "cat-\($0)") }
        pets = BehaviorRelay(value: [AnimatableSectionModel(model: "Cats", items: cats),
                                     AnimatableSectionModel(model: "Dogs", items: [Pet(name: "Rex")])])
        super.init()
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        let dataSource = RxTableViewSectionedAnimatedDataSource<AnimatableSectionModel<String, Pet>>(
            configureCell: { _, _, _, pet in
                let cell = TableViewCell(style: .default, reuseIdentifier: nil)
                cell.textLabel?.text = pet.name
                cell.accessoryType = pet.name == "Rex" ? .detailButton : .none
                return cell
            },
            titleForHeaderInSection: { dataSource, section in dataSource[section].model })
        pets.bind(to: table.rx.items(dataSource: dataSource)).disposed(by: bag)
        table.rx.modelSelected(Pet.self).map(\.name).bind(to: selected.rx.text).disposed(by: bag)
        table.rx.itemAccessoryButtonTapped.map { "info \($0.row)" }.bind(to: selected.rx.text).disposed(by: bag)
        table.rx.itemDeleted.subscribe(onNext: { [pets] path in
            var sections = pets.value
            sections[path.section].items.remove(at: path.row)
            pets.accept(sections)
        }).disposed(by: bag)
        add.rx.tap.subscribe(onNext: { [pets] in
            var sections = pets.value
            let cats = sections[0].items
            sections[0].items.insert(Pet(name: "kitten"), at: cats.count / 2)
            pets.accept(sections)
        }).disposed(by: bag)
    }

    var sceneWidgets: [(id: String, widget: View)] {
        [("pets", table), ("selected", selected), ("add", add)]
    }
}

/// Tables over the real message path: JSON in, the session's answers out.
final class TableViewProtocolTests: XCTestCase {
    private var fixture: TableSceneFixture!

    override func setUp() {
        super.setUp()
        fixture = TableSceneFixture { registry in
            registry.register("pets", title: "Pets") { PetsViewController(count: 3) }
            registry.register("big", title: "Big") { PetsViewController(count: 10_000) }
        }
    }

    func testTheSceneCarriesSectionsAndKeyedRows() throws {
        let session = try fixture.store.createSession(scene: "pets")
        let json = MessageEncoder.encode(.scene(session.sceneMessage(resumed: false)))
        XCTAssertTrue(json.contains(#"{"id":"pets","kind":"tableView","props":{"allowsMultipleSelection":false,"allowsSelection":true,"allowsSelectionDuringEditing":false,"alpha":1,"backgroundColor":null,"isEditing":false,"isHidden":false,"items":[{"id":"cat-0","canMove":true,"section":"Cats","text":"cat-0"},{"id":"cat-1","canMove":true,"section":"Cats","text":"cat-1"},{"id":"cat-2","canMove":true,"section":"Cats","text":"cat-2"},{"id":"Rex","accessoryType":"detailButton","canMove":true,"section":"Dogs","text":"Rex"}],"sections":[{"id":"Cats","header":"Cats"},{"id":"Dogs","header":"Dogs"}],"selectedRows":[],"style":"plain"}}"#), json)
    }

    func testSelectingARowByKeyIsAnsweredWithTheSelectionAndWhatTheBindingsDid() throws {
        let session = try fixture.store.createSession(scene: "pets")
        XCTAssertEqual(fixture.send(session, #"{"type":"event","seq":1,"target":"pets","event":"itemSelected","row":"cat-1"}"#),
                       #"{"type":"patch","ack":1,"changes":[{"target":"pets","prop":"selectedRows","value":["cat-1"]},{"target":"selected","prop":"text","value":"cat-1"}]}"#)
        XCTAssertEqual(fixture.send(session, #"{"type":"event","seq":2,"target":"pets","event":"itemAccessoryButtonTapped","row":"Rex"}"#),
                       #"{"type":"patch","ack":2,"changes":[{"target":"selected","prop":"text","value":"info 0"}]}"#)
    }

    func testADeleteIsAKeyedRemoveInTheAnswer() throws {
        let session = try fixture.store.createSession(scene: "pets")
        XCTAssertEqual(fixture.send(session, #"{"type":"event","seq":3,"target":"pets","event":"itemDeleted","row":"cat-0"}"#),
                       #"{"type":"patch","ack":3,"changes":[{"target":"pets","prop":"items","ops":[{"op":"remove","index":0,"count":1}]}]}"#)
    }

    func testAMoveAcrossSectionsIsAnsweredWithAMoveAndTheRowsNewSection() throws {
        let session = try fixture.store.createSession(scene: "pets")
        (session.controller as! PetsViewController).table.setEditing(true, animated: false)
        session.flush()
        XCTAssertEqual(fixture.send(session, #"{"type":"event","seq":4,"target":"pets","event":"itemMoved","row":"cat-0","toSection":"Dogs","toIndex":1}"#),
                       #"{"type":"patch","ack":4,"changes":[{"target":"pets","prop":"items","ops":[{"op":"move","from":0,"to":3},{"op":"update","index":3,"row":{"id":"cat-0","canMove":true,"section":"Dogs","text":"cat-0"}}]}]}"#)
    }

    func testBadRowEventsGetStableCodesWithTheirAck() throws {
        let session = try fixture.store.createSession(scene: "pets")
        XCTAssertEqual(fixture.code(session, #"{"type":"event","seq":5,"target":"pets","event":"itemSelected","row":"cat-9"}"#), "5 unknown-row")
        XCTAssertEqual(fixture.code(session, #"{"type":"event","seq":6,"target":"pets","event":"itemSelected"}"#), "6 bad-value")
        XCTAssertEqual(fixture.code(session, #"{"type":"event","seq":7,"target":"pets","event":"touchUpInside","row":"cat-1"}"#), "7 unknown-event")
        XCTAssertEqual(fixture.code(session, #"{"type":"event","seq":8,"target":"pets","event":"itemSelected","row":3}"#), "8 bad-message")
        XCTAssertEqual(fixture.code(session, #"{"type":"event","seq":9,"target":"pets","event":"itemMoved","row":"cat-1","toSection":"Dogs","toIndex":1.5}"#), "9 bad-message")
        XCTAssertEqual(fixture.code(session, #"{"type":"event","seq":10,"target":"pets","event":"itemMoved","row":"cat-1","toSection":"Dogs","toIndex":0}"#), "10 disabled")
        (session.controller as! PetsViewController).table.setEditing(true, animated: false)
        XCTAssertEqual(fixture.code(session, #"{"type":"event","seq":11,"target":"pets","event":"itemMoved","row":"cat-1","toSection":"Dogs","toIndex":2}"#), "11 index-out-of-range")
        XCTAssertEqual(fixture.code(session, #"{"type":"event","seq":12,"target":"pets","event":"itemMoved","row":"cat-1","toSection":"Birds","toIndex":0}"#), "12 unknown-row")
    }

    func testOneInsertIntoTenThousandRowsIsOneSmallPatch() throws {
        let session = try fixture.store.createSession(scene: "big")
        let scene = MessageEncoder.encodeUTF8(.scene(session.sceneMessage(resumed: false)))
        XCTAssertGreaterThan(scene.count, 400_000, "the scene carries every row")
        let answer = fixture.send(session, #"{"type":"event","seq":1,"target":"add","event":"touchUpInside"}"#)
        XCTAssertEqual(answer, #"{"type":"patch","ack":1,"changes":[{"target":"pets","prop":"items","ops":[{"op":"insert","index":5000,"rows":[{"id":"kitten","canMove":true,"section":"Cats","text":"kitten"}]}]}]}"#)
        XCTAssertLessThan(answer.utf8.count, 200)
    }
}
