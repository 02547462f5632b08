@testable import Bindery
import BinderyTesting
import Foundation
import RxCore
import RxTesting
import RxWidgets
import XCTest

/// One table of `count` numbered rows in one section, and one in two sections.
private final class NumbersViewController: ViewController, Scene {
    let bag = DisposeBag()
    let numbers = TableView()
    let grouped = TableView()
    let add = Button()
    let relay: BehaviorRelay<[AnimatableSectionModel<String, Int>]>

    init(count: Int) {
        relay = BehaviorRelay(value: [AnimatableSectionModel(model: "All", items: Array(0..<count))])
        super.init()
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        let dataSource = RxTableViewSectionedAnimatedDataSource<AnimatableSectionModel<String, Int>>(
            configureCell: { _, _, _, number in
                let cell = TableViewCell(style: .default, reuseIdentifier: nil)
                cell.textLabel?.text = "n\(number)"
                return cell
            })
        relay.bind(to: numbers.rx.items(dataSource: dataSource)).disposed(by: bag)
        let groups = Observable.just([AnimatableSectionModel(model: "Low", items: Array(0..<300)),
                                      AnimatableSectionModel(model: "High", items: Array(300..<600))])
        let groupSource = RxTableViewSectionedAnimatedDataSource<AnimatableSectionModel<String, Int>>(
            configureCell: { _, _, _, number in TableViewCell(style: .default, reuseIdentifier: nil) })
        groups.bind(to: grouped.rx.items(dataSource: groupSource)).disposed(by: bag)
        add.rx.tap.subscribe(onNext: { [relay] in
            var sections = relay.value
            sections[0].items.insert(-1, at: 0)
            relay.accept(sections)
        }).disposed(by: bag)
    }

    var sceneWidgets: [(id: String, widget: View)] {
        [("numbers", numbers), ("grouped", grouped), ("add", add)]
    }
}

/// PROTOCOL.md, "Large tables": windowed scenes (`?rows=N`) and `rows` requests.
final class RowsMessageTests: XCTestCase {
    private var fixture: TableSceneFixture!

    override func setUp() {
        super.setUp()
        fixture = TableSceneFixture { registry in
            registry.register("numbers", title: "Numbers") { NumbersViewController(count: 1_000) }
        }
    }

    private func table(_ scene: SceneMessage, _ id: String) -> [String: WidgetValue] {
        scene.widgets.first { $0.id == id }!.properties
    }

    func testAWindowedSceneCarriesTheFirstRowsAndTheCountOfOneSectionTables() throws {
        let session = try fixture.store.createSession(scene: "numbers")
        let whole = session.sceneMessage(resumed: false)
        let windowed = whole.windowingTables(to: 200)
        guard case .rows(let rows)? = table(windowed, "numbers")["items"] else { return XCTFail("rows expected") }
        XCTAssertEqual(rows.map(\.id), (0..<200).map(String.init))
        XCTAssertEqual(table(windowed, "numbers")["itemCount"], .number(1_000))
        XCTAssertEqual(table(windowed, "grouped"), table(whole, "grouped"), "two sections: sent whole")
        XCTAssertEqual(whole.windowingTables(to: 1_000), whole, "no table longer than the window: unchanged")
        let json = MessageEncoder.encode(.scene(windowed))
        XCTAssertTrue(json.contains(#""itemCount":1000,"items":[{"id":"0","canMove":true,"section":"All","text":"n0"},"#))
        // 800 rows of about 50 bytes fewer.
        XCTAssertLessThan(json.utf8.count, MessageEncoder.encode(.scene(whole)).utf8.count - 35_000)
    }

    func testAClientWithARowWindowGetsWindowedScenesOnResyncToo() throws {
        let session = try fixture.store.createSession(scene: "numbers")
        var sent: [ServerMessage] = []
        let client = session.attach(kind: .webSocket) { sent.append($0.message) }
        client.rowWindow = 50
        client.receive(text: #"{"type":"resync","seq":1}"#)
        guard case .scene(let scene)? = sent.last, case .rows(let rows)? = table(scene, "numbers")["items"] else {
            return XCTFail("a scene expected, got \(sent)")
        }
        XCTAssertEqual(rows.count, 50)
        XCTAssertEqual(scene.ack, 1)
    }

    func testRowsAreAnsweredAsTheyAreNowWithTheCountAndTheAck() throws {
        let session = try fixture.store.createSession(scene: "numbers")
        XCTAssertEqual(fixture.send(session, #"{"type":"rows","seq":2,"target":"numbers","from":998,"to":1000}"#),
                       #"{"type":"rows","ack":2,"target":"numbers","from":998,"count":1000,"rows":[{"id":"998","canMove":true,"section":"All","text":"n998"},{"id":"999","canMove":true,"section":"All","text":"n999"}]}"#)
        // After an insert at the top, the same range is the rows that moved down; past the end is cut.
        _ = fixture.send(session, #"{"type":"event","seq":3,"target":"add","event":"touchUpInside"}"#)
        XCTAssertEqual(fixture.send(session, #"{"type":"rows","seq":4,"target":"numbers","from":999,"to":1005}"#),
                       #"{"type":"rows","ack":4,"target":"numbers","from":999,"count":1001,"rows":[{"id":"998","canMove":true,"section":"All","text":"n998"},{"id":"999","canMove":true,"section":"All","text":"n999"}]}"#)
        XCTAssertEqual(fixture.send(session, #"{"type":"rows","target":"numbers","from":1001,"to":1001}"#),
                       #"{"type":"rows","target":"numbers","from":1001,"count":1001,"rows":[]}"#)
    }

    func testBadRowsRequestsGetStableCodesWithTheirAck() throws {
        let session = try fixture.store.createSession(scene: "numbers")
        func answer(_ json: String) -> (code: String?, ack: Int?) {
            guard case .error(let error) = session.handle(text: json)! else { return (nil, nil) }
            return (error.code.rawValue, error.ack)
        }
        XCTAssertEqual(answer(#"{"type":"rows","seq":5,"target":"numbers","from":1001,"to":1002}"#).code, "index-out-of-range")
        XCTAssertEqual(answer(#"{"type":"rows","seq":6,"target":"numbers","from":-1,"to":2}"#).code, "index-out-of-range")
        XCTAssertEqual(answer(#"{"type":"rows","seq":7,"target":"numbers","from":5,"to":4}"#).code, "index-out-of-range")
        XCTAssertEqual(answer(#"{"type":"rows","seq":8,"target":"numbers","from":0,"to":1001}"#).code, "index-out-of-range",
                       "more than 1,000 rows at once")
        XCTAssertEqual(answer(#"{"type":"rows","seq":9,"target":"add","from":0,"to":1}"#).code, "unknown-target", "not a table")
        XCTAssertEqual(answer(#"{"type":"rows","seq":10,"target":"nothing","from":0,"to":1}"#).code, "unknown-target")
        let missing = answer(#"{"type":"rows","seq":11,"target":"numbers","from":0}"#)
        XCTAssertEqual(missing.code, "bad-message")
        XCTAssertEqual(missing.ack, 11)
        XCTAssertEqual(answer(#"{"type":"rows","seq":12,"target":"numbers","from":0.5,"to":1}"#).code, "bad-message")
        XCTAssertEqual(answer(#"{"type":"rows","seq":13,"target":"numbers","from":0,"to":1002}"#).ack, 13)
    }

    func testTheRowsRequestDecodes() {
        XCTAssertEqual(try MessageDecoder.decode(#"{"type":"rows","seq":3,"target":"t","from":10,"to":20}"#).get(),
                       .rows(RowsRequest(seq: 3, target: "t", from: 10, to: 20)))
    }
}
