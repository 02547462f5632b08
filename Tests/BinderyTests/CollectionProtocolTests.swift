import Bindery
import Foundation
import RxCore
import RxTesting
import RxWidgets
import XCTest

private struct Photo: IdentifiableType, Equatable {
    let name: String
    var identity: String { name }
}

/// A grid of photos (animated data source) with a refresh control and two swipes, page
/// dots, a label, and a text field the Focus button focuses (Done ends editing).
private final class PhotosViewController: ViewController, Scene {
    let bag = DisposeBag()
    let grid = CollectionView()
    let pages = PageControl()
    let status = Label()
    let caption = TextField()
    let focus = Button()
    let done = Button()
    let refresh = RefreshControl()
    let swipe = SwipeGestureRecognizer()
    let photos = BehaviorRelay(value: [AnimatableSectionModel(model: "Roll", items: [Photo(name: "a"), Photo(name: "b")])])

    override func viewDidLoad() {
        super.viewDidLoad()
        let dataSource = RxCollectionViewSectionedAnimatedDataSource<AnimatableSectionModel<String, Photo>>(
            configureCell: { _, _, _, photo in
                let cell = CollectionViewCell()
                cell.textLabel.text = photo.name
                return cell
            })
        photos.bind(to: grid.rx.items(dataSource: dataSource)).disposed(by: bag)
        grid.refreshControl = refresh
        swipe.direction = .left
        grid.addGestureRecognizer(swipe)
        pages.numberOfPages = 3
        grid.rx.modelSelected(Photo.self).map { "picked \($0.name)" }.bind(to: status.rx.text).disposed(by: bag)
        refresh.rx.controlEvent(.valueChanged).subscribe(onNext: { [photos] in
            var sections = photos.value
            sections[0].items.insert(Photo(name: "new"), at: 0)
            photos.accept(sections)
        }).disposed(by: bag)
        swipe.rx.event.map { _ in "swiped" }.bind(to: status.rx.text).disposed(by: bag)
        pages.rx.currentPage.skip(1).map { "page \($0)" }.bind(to: status.rx.text).disposed(by: bag)
        caption.rx.controlEvent(.editingDidBegin).map { "editing" }.bind(to: status.rx.text).disposed(by: bag)
        caption.rx.controlEvent(.editingDidEnd).map { "done" }.bind(to: status.rx.text).disposed(by: bag)
        focus.rx.tap.subscribe(onNext: { [caption] in caption.becomeFirstResponder() }).disposed(by: bag)
        done.rx.tap.subscribe(onNext: { [unowned self] in self.view.endEditing(true) }).disposed(by: bag)
    }

    var sceneWidgets: [(id: String, widget: View)] {
        [("grid", grid), ("pages", pages), ("status", status), ("caption", caption), ("focus", focus), ("done", done)]
    }
}

/// Collection views, refresh and page controls, swipes and the focus over the real
/// message path: JSON in, the session's answers out.
final class CollectionProtocolTests: XCTestCase {
    private var fixture: TableSceneFixture!

    override func setUp() {
        super.setUp()
        fixture = TableSceneFixture { registry in
            registry.register("photos", title: "Photos") { PhotosViewController() }
        }
    }

    func testTheSceneCarriesTheGridItsLayoutAndTheAttachedWidgets() throws {
        let session = try fixture.store.createSession(scene: "photos")
        let json = MessageEncoder.encode(.scene(session.sceneMessage(resumed: false)))
        XCTAssertTrue(json.contains(#"{"id":"grid","kind":"collectionView","props":{"allowsMultipleSelection":false,"allowsSelection":true,"alpha":1,"backgroundColor":null,"isHidden":false,"itemHeight":50,"itemWidth":50,"items":[{"id":"a","section":"Roll","text":"a"},{"id":"b","section":"Roll","text":"b"}],"minimumInteritemSpacing":10,"minimumLineSpacing":10,"scrollDirection":"vertical","sections":[{"id":"Roll"}],"selectedItems":[]}}"#), json)
        XCTAssertTrue(json.contains(#""kind":"refreshControl","props":{"alpha":1,"backgroundColor":null,"isEnabled":true,"isHidden":false,"isRefreshing":false,"view":"grid"}"#), json)
        XCTAssertTrue(json.contains(#""kind":"swipeGestureRecognizer","props":{"alpha":1,"backgroundColor":null,"direction":["left"],"isEnabled":true,"isHidden":false,"view":"grid"}"#), json)
        XCTAssertTrue(json.contains(#"{"id":"pages","kind":"pageControl","props":{"alpha":1,"backgroundColor":null,"currentPage":0,"hidesForSinglePage":false,"isEnabled":true,"isHidden":false,"numberOfPages":3}}"#), json)
        XCTAssertTrue(json.contains(#""focused":false"#), "text inputs carry focused")
    }

    func testSelectingAnItemByKeyIsAnsweredWithTheSelectionAndWhatTheBindingsDid() throws {
        let session = try fixture.store.createSession(scene: "photos")
        XCTAssertEqual(fixture.send(session, #"{"type":"event","seq":1,"target":"grid","event":"itemSelected","row":"b"}"#),
                       #"{"type":"patch","ack":1,"changes":[{"target":"grid","prop":"selectedItems","value":["b"]},{"target":"status","prop":"text","value":"picked b"}]}"#)
    }

    func testARefreshIsAnsweredWithTheSpinnerAndAKeyedInsert() throws {
        let session = try fixture.store.createSession(scene: "photos")
        XCTAssertEqual(fixture.send(session, #"{"type":"event","seq":2,"target":"refreshControl-2","event":"valueChanged"}"#),
                       #"{"type":"patch","ack":2,"changes":[{"target":"refreshControl-2","prop":"isRefreshing","value":true},{"target":"grid","prop":"items","ops":[{"op":"insert","index":0,"rows":[{"id":"new","section":"Roll","text":"new"}]}]}]}"#)
        // Still refreshing: a second pull changes nothing.
        XCTAssertEqual(fixture.send(session, #"{"type":"event","seq":3,"target":"refreshControl-2","event":"valueChanged"}"#),
                       #"{"type":"patch","ack":3,"changes":[]}"#)
    }

    func testASwipeAndAPageAreAnswered() throws {
        let session = try fixture.store.createSession(scene: "photos")
        XCTAssertEqual(fixture.send(session, #"{"type":"event","seq":4,"target":"swipeGestureRecognizer-1","event":"recognized"}"#),
                       #"{"type":"patch","ack":4,"changes":[{"target":"status","prop":"text","value":"swiped"}]}"#)
        XCTAssertEqual(fixture.send(session, #"{"type":"event","seq":5,"target":"pages","event":"valueChanged","value":2}"#),
                       #"{"type":"patch","ack":5,"changes":[{"target":"status","prop":"text","value":"page 2"}]}"#,
                       "the sender's own page is not echoed")
    }

    func testTheServerMovesTheFocusAndTheClientsReportIsNotSentAgain() throws {
        let session = try fixture.store.createSession(scene: "photos")
        XCTAssertEqual(fixture.send(session, #"{"type":"event","seq":6,"target":"focus","event":"touchUpInside"}"#),
                       #"{"type":"patch","ack":6,"changes":[{"target":"caption","prop":"focused","value":true},{"target":"status","prop":"text","value":"editing"}]}"#)
        // The browser focuses the field and reports it: already so, nothing happens.
        XCTAssertEqual(fixture.send(session, #"{"type":"event","seq":7,"target":"caption","event":"editingDidBegin"}"#),
                       #"{"type":"patch","ack":7,"changes":[]}"#)
        XCTAssertEqual(fixture.send(session, #"{"type":"event","seq":8,"target":"done","event":"touchUpInside"}"#),
                       #"{"type":"patch","ack":8,"changes":[{"target":"caption","prop":"focused","value":false},{"target":"status","prop":"text","value":"done"}]}"#)
        // The blur's report carries the text: applied, the event not sent again.
        XCTAssertEqual(fixture.send(session, #"{"type":"event","seq":9,"target":"caption","event":"editingDidEnd","value":"hi"}"#),
                       #"{"type":"patch","ack":9,"changes":[]}"#)
        XCTAssertEqual((session.controller as! PhotosViewController).caption.text, "hi")
        // The user's own focus: the app hears it; the sender's browser knows it already.
        XCTAssertEqual(fixture.send(session, #"{"type":"event","seq":10,"target":"caption","event":"editingDidBegin"}"#),
                       #"{"type":"patch","ack":10,"changes":[{"target":"status","prop":"text","value":"editing"}]}"#)
        XCTAssertTrue((session.controller as! PhotosViewController).caption.isFirstResponder)
    }

    func testBadEventsGetStableCodesWithTheirAck() throws {
        let session = try fixture.store.createSession(scene: "photos")
        XCTAssertEqual(fixture.code(session, #"{"type":"event","seq":11,"target":"grid","event":"itemSelected","row":"zz"}"#), "11 unknown-row")
        XCTAssertEqual(fixture.code(session, #"{"type":"event","seq":12,"target":"grid","event":"itemSelected"}"#), "12 bad-value")
        XCTAssertEqual(fixture.code(session, #"{"type":"event","seq":13,"target":"grid","event":"itemDeleted","row":"a"}"#), "13 unknown-event")
        XCTAssertEqual(fixture.code(session, #"{"type":"event","seq":14,"target":"grid","event":"itemMoved","row":"a","toSection":"Roll","toIndex":1}"#), "14 disabled")
        XCTAssertEqual(fixture.code(session, #"{"type":"event","seq":15,"target":"pages","event":"valueChanged","value":3}"#), "15 bad-value")
        XCTAssertEqual(fixture.code(session, #"{"type":"event","seq":16,"target":"pages","event":"valueChanged","value":"1"}"#), "16 bad-value")
        XCTAssertEqual(fixture.code(session, #"{"type":"event","seq":17,"target":"pages","event":"valueChanged"}"#), "17 bad-value")
        XCTAssertEqual(fixture.code(session, #"{"type":"event","seq":18,"target":"refreshControl-2","event":"valueChanged","value":true}"#), "18 bad-value")
        XCTAssertEqual(fixture.code(session, #"{"type":"event","seq":19,"target":"swipeGestureRecognizer-1","event":"swiped"}"#), "19 unknown-event")
    }
}
