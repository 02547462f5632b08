import RxCore
import RxWidgets
import XCTest

final class SearchBarTests: XCTestCase {
    func testTextFollowsEditsAndEditingEndAndTheButtonsAreTheirOwnEvents() throws {
        let searchBar = SearchBar()
        searchBar.showsCancelButton = true
        let bag = DisposeBag()
        var log: [String] = []
        searchBar.rx.text.orEmpty.subscribe(onNext: { log.append("text '\($0)'") }).disposed(by: bag)
        searchBar.rx.searchButtonClicked.subscribe(onNext: { log.append("search") }).disposed(by: bag)
        searchBar.rx.cancelButtonClicked.subscribe(onNext: { log.append("cancel") }).disposed(by: bag)
        searchBar.rx.textDidBeginEditing.subscribe(onNext: { log.append("begin") }).disposed(by: bag)

        try searchBar.sendUserEvent(.editingDidBegin)
        try searchBar.sendUserEvent(.editingChanged, value: .string("rx"))
        try searchBar.receive(WidgetEvent(name: "searchButtonClicked"))
        try searchBar.receive(WidgetEvent(name: "cancelButtonClicked"))
        try searchBar.sendUserEvent(.editingDidEnd)
        XCTAssertEqual(log, ["text ''", "begin", "text 'rx'", "search", "cancel", "text 'rx'"])
        XCTAssertEqual(searchBar.text, "rx", "cancel leaves the text to the app")
    }

    func testCancelNeedsTheButtonAndADisabledBarSendsNothing() {
        let searchBar = SearchBar()
        XCTAssertThrowsError(try searchBar.receive(WidgetEvent(name: "cancelButtonClicked"))) { error in
            XCTAssertEqual((error as? WidgetInputError)?.code, .unknownEvent)
        }
        searchBar.isEnabled = false
        XCTAssertThrowsError(try searchBar.receive(WidgetEvent(name: "searchButtonClicked"))) { error in
            XCTAssertEqual((error as? WidgetInputError)?.code, .disabled)
        }
        XCTAssertEqual(searchBar.snapshot()["showsCancelButton"], .bool(false))
        XCTAssertEqual(searchBar.kind, "searchBar")
    }
}

final class TextViewTests: XCTestCase {
    func testTextAndEditingEventsAsRxCocoas() throws {
        let textView = TextView()
        let bag = DisposeBag()
        var log: [String] = []
        textView.rx.text.orEmpty.subscribe(onNext: { log.append("text '\($0)'") }).disposed(by: bag)
        textView.rx.didBeginEditing.subscribe(onNext: { log.append("begin") }).disposed(by: bag)
        textView.rx.didChange.subscribe(onNext: { log.append("change") }).disposed(by: bag)
        textView.rx.didEndEditing.subscribe(onNext: { log.append("end") }).disposed(by: bag)
        try textView.sendUserEvent(.editingDidBegin)
        try textView.sendUserEvent(.editingChanged, value: .string("line 1\nline 2"))
        try textView.sendUserEvent(.editingDidEnd)
        XCTAssertEqual(log, ["text ''", "begin", "text 'line 1\nline 2'", "change", "end"])
        textView.isEditable = false
        XCTAssertThrowsError(try textView.sendUserEvent(.editingChanged, value: .string("x")))
        XCTAssertThrowsError(try textView.sendUserEvent(.editingDidEndOnExit), "Return is a new line, not an event")
    }
}

final class PickerViewTests: XCTestCase {
    func testItemTitlesAndItemSelectedAsRxCocoas() throws {
        let picker = PickerView()
        let tree = widgetTestTree(["picker": picker])
        let bag = DisposeBag()
        Observable.just([3, 5, 8]).bind(to: picker.rx.itemTitles) { row, number in "#\(row): \(number)" }.disposed(by: bag)
        XCTAssertEqual(picker.snapshot()["items"], .strings(["#0: 3", "#1: 5", "#2: 8"]))
        var log: [String] = []
        picker.rx.itemSelected.subscribe(onNext: { log.append("row \($0.row) component \($0.component)") }).disposed(by: bag)
        picker.rx.modelSelected(Int.self).subscribe(onNext: { log.append("models \($0)") }).disposed(by: bag)
        _ = tree.takeChanges()

        XCTAssertEqual(try picker.sendUserEvent(.valueChanged, value: .number(2)), .number(2))
        XCTAssertEqual(log, ["row 2 component 0", "models [8]"])
        XCTAssertEqual(widgetTestChanges(tree), ["picker.selectedRow = 2.0"])
        XCTAssertThrowsError(try picker.sendUserEvent(.valueChanged, value: .number(3))) { error in
            XCTAssertEqual((error as? WidgetInputError)?.code, .indexOutOfRange)
        }
        picker.selectRow(0, inComponent: 0, animated: true)
        XCTAssertEqual(picker.selectedRow(inComponent: 0), 0)
        XCTAssertEqual(log.count, 2, "selecting in code sends nothing")
        XCTAssertEqual(PickerView().selectedRow(inComponent: 0), -1)
    }
}
