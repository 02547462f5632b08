import Foundation
import RxCore
import RxWidgets
import XCTest

// Seed 3 (the `counter` scene): a label showing "\(text.count)개" for a text field,
// through a custom `rx.countText` binder.

final class CounterViewController: ViewController {
    let bag = DisposeBag()

    let textField = TextField()
    let countLabel = Label()

    override func viewDidLoad() {
        super.viewDidLoad()
        textField.rx.text
            .bind(to: countLabel.rx.countText)
            .disposed(by: bag)
    }
}

extension Reactive where Base: Label {
    var countText: Binder<String?> {
        return Binder(self.base) { label, text in
            let count = text?.count ?? 0
            label.text = "\(count)개"
        }
    }
}

final class CounterSeedTests: XCTestCase {
    func testTheLabelCountsWhatTheUserTypes() throws {
        let controller = CounterViewController()
        controller.loadViewIfNeeded()
        let tree = widgetTestTree(["textField": controller.textField, "countLabel": controller.countLabel])
        XCTAssertEqual(controller.countLabel.text, "0개", "the control property replays the current text")

        try controller.textField.sendUserEvent(.editingDidBegin)
        XCTAssertEqual(widgetTestChanges(tree), [], "the same count again changes nothing")

        try controller.textField.sendUserEvent(.editingChanged, value: .string("안녕하세요"))
        XCTAssertEqual(controller.countLabel.text, "5개")
        XCTAssertEqual(widgetTestChanges(tree), [
            "textField.text = \"안녕하세요\"",
            "countLabel.text = \"5개\"",
        ])

        // Characters, not bytes or UTF-16 units.
        try controller.textField.sendUserEvent(.editingChanged, value: .string("👍🏽!"))
        XCTAssertEqual(controller.countLabel.text, "2개")
    }

    func testTextSetInCodeIsNotAControlEvent() throws {
        let controller = CounterViewController()
        controller.loadViewIfNeeded()
        let tree = widgetTestTree(["textField": controller.textField, "countLabel": controller.countLabel])

        controller.textField.text = "abc"
        XCTAssertEqual(controller.countLabel.text, "0개", "programmatic changes are not reported (RxCocoa)")
        XCTAssertEqual(widgetTestChanges(tree), ["textField.text = \"abc\""])

        // The next user event reads the current text.
        try controller.textField.sendUserEvent(.editingDidEnd)
        XCTAssertEqual(controller.countLabel.text, "3개")
    }

    func testATextFieldRejectsValuesThatAreNotText() {
        let controller = CounterViewController()
        controller.loadViewIfNeeded()
        XCTAssertThrowsError(try controller.textField.sendUserEvent(.editingChanged, value: .number(3))) { error in
            XCTAssertEqual((error as? WidgetInputError)?.code, .badValue)
        }
        XCTAssertThrowsError(try controller.textField.sendUserEvent(.valueChanged)) { error in
            XCTAssertEqual((error as? WidgetInputError)?.code, .unknownEvent)
        }
        XCTAssertEqual(controller.countLabel.text, "0개")
    }
}
