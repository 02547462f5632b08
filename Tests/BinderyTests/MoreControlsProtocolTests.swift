import Bindery
import BinderyTesting
import Foundation
import RxCore
import RxTesting
import RxWidgets
import XCTest

/// A search bar filtering fruit names into a label; a picker; a text view counting lines.
private final class SearchViewController: ViewController {
    let bag = DisposeBag()
    let search = SearchBar()
    let results = Label()
    let picker = PickerView()
    let notes = TextView()
    let lines = Label()

    override func viewDidLoad() {
        super.viewDidLoad()
        search.showsCancelButton = true
        let fruit = ["apple", "apricot", "banana"]
        search.rx.text.orEmpty
            .map { query in fruit.filter { query.isEmpty || $0.hasPrefix(query) }.joined(separator: ", ") }
            .bind(to: results.rx.text)
            .disposed(by: bag)
        search.rx.cancelButtonClicked.map { "" }.bind(to: search.rx.text).disposed(by: bag)
        search.rx.searchButtonClicked.map { "searched" }.bind(to: lines.rx.text).disposed(by: bag)
        Observable.just(fruit).bind(to: picker.rx.itemTitles) { _, name in name.capitalized }.disposed(by: bag)
        picker.rx.modelSelected(String.self).map { $0[0] }.bind(to: results.rx.text).disposed(by: bag)
        notes.rx.text.orEmpty.map { "\($0.split(separator: "\n").count) lines" }.bind(to: lines.rx.text).disposed(by: bag)
    }
}

final class MoreControlsProtocolTests: XCTestCase {
    private var session: Session!

    override func setUpWithError() throws {
        try super.setUpWithError()
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
        let registry = SceneRegistry()
        registry.register("search", title: "Search") { SearchViewController() }
        let store = SessionStore(registry: registry,
                                 configuration: SessionStore.Configuration(gracePeriod: .seconds(30), maxSessions: 5,
                                                                           maxSessionsPerAddress: 3, strictBindingErrors: false),
                                 scheduler: scheduler, flushScheduler: scheduler)
        session = try store.createSession(scene: "search")
    }

    private func send(_ json: String) -> String {
        MessageEncoder.encode(session.handle(text: json)!)
    }

    func testSearchBarTypingFollowsTheOwnValueRuleAndItsButtonsAreEvents() {
        XCTAssertEqual(send(#"{"type":"event","seq":1,"target":"search","event":"editingChanged","value":"ap"}"#),
                       #"{"type":"patch","ack":1,"changes":[{"target":"results","prop":"text","value":"apple, apricot"}]}"#)
        XCTAssertEqual(send(#"{"type":"event","seq":2,"target":"search","event":"searchButtonClicked"}"#),
                       #"{"type":"patch","ack":2,"changes":[{"target":"lines","prop":"text","value":"searched"}]}"#)
        XCTAssertEqual(send(#"{"type":"event","seq":3,"target":"search","event":"cancelButtonClicked"}"#),
                       #"{"type":"patch","ack":3,"changes":[{"target":"search","prop":"text","value":""}]}"#,
                       "the binding cleared the text; the results follow only on the user's next edit, as with rx.text")
        XCTAssertTrue(send(#"{"type":"event","seq":4,"target":"search","event":"bookmarkButtonClicked"}"#).contains(#""code":"unknown-event""#))
    }

    func testPickerSelectionAndTextView() {
        let scene = MessageEncoder.encode(.scene(session.sceneMessage(resumed: false)))
        XCTAssertTrue(scene.contains(#"{"id":"picker","kind":"pickerView","props":{"alpha":1,"backgroundColor":null,"isEnabled":true,"isHidden":false,"items":["Apple","Apricot","Banana"],"selectedRow":0}}"#), scene)
        XCTAssertEqual(send(#"{"type":"event","seq":1,"target":"picker","event":"valueChanged","value":2}"#),
                       #"{"type":"patch","ack":1,"changes":[{"target":"results","prop":"text","value":"banana"}]}"#)
        XCTAssertTrue(send(#"{"type":"event","seq":2,"target":"picker","event":"valueChanged","value":7}"#).contains(#""code":"index-out-of-range""#))
        XCTAssertEqual(send(#"{"type":"event","seq":3,"target":"notes","event":"editingChanged","value":"a\nb\nc"}"#),
                       #"{"type":"patch","ack":3,"changes":[{"target":"lines","prop":"text","value":"3 lines"}]}"#)
    }
}
