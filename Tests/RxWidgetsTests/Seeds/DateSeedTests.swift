import Foundation
import RxCore
import RxWidgets
import XCTest

// Seed 4 (the `date` scene): a button's tap binds the current date to a text field
// through a custom `Binder<Date>` that formats it (`rx.formattedText`).

final class DateViewController: ViewController {
    let bag = DisposeBag()

    let nowButton = Button()
    let dateField = TextField()

    /// The clock (the real one in the app; a fixed one in tests).
    let now: () -> Date

    init(now: @escaping () -> Date = Date.init) {
        self.now = now
        super.init()
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        nowButton.setTitle("Now", for: .normal)
        nowButton.rx.tap
            .map { [now] in now() }
            .bind(to: dateField.rx.formattedText)
            .disposed(by: bag)
    }
}

extension Reactive where Base: TextField {
    var formattedText: Binder<Date> {
        return Binder(self.base) { textField, date in
            let formatter = DateFormatter()
            formatter.dateFormat = "yyyy년 MM월 dd일 HH:mm"
            textField.text = formatter.string(from: date)
        }
    }
}

final class DateSeedTests: XCTestCase {
    /// "yyyy년 MM월 dd일 HH:mm" in the process's time zone, computed independently.
    private func expectedText(_ date: Date) -> String {
        let parts = Calendar(identifier: .gregorian).dateComponents(in: TimeZone.current, from: date)
        return String(format: "%04d년 %02d월 %02d일 %02d:%02d", parts.year!, parts.month!, parts.day!, parts.hour!, parts.minute!)
    }

    func testTappingNowShowsTheFormattedDate() throws {
        let moment = Date(timeIntervalSince1970: 1_714_555_800) // 2024-05-01 09:30 UTC
        let controller = DateViewController(now: { moment })
        controller.loadViewIfNeeded()
        let tree = widgetTestTree(["nowButton": controller.nowButton, "dateField": controller.dateField])
        XCTAssertEqual(controller.dateField.text, "", "nothing until the first tap (a control event has no initial value)")

        try controller.nowButton.sendUserEvent(.touchUpInside)
        let text = expectedText(moment)
        XCTAssertEqual(controller.dateField.text, text)
        XCTAssertEqual(widgetTestChanges(tree), ["dateField.text = \"\(text)\""])
    }

    func testEachTapReadsTheClockAgain() throws {
        var clock = Date(timeIntervalSince1970: 1_714_555_800)
        let controller = DateViewController(now: { clock })
        controller.loadViewIfNeeded()

        try controller.nowButton.sendUserEvent(.touchUpInside)
        clock += 3600
        try controller.nowButton.sendUserEvent(.touchUpInside)
        XCTAssertEqual(controller.dateField.text, expectedText(clock))
    }

    func testADisabledButtonRejectsTheTap() {
        let controller = DateViewController(now: { Date(timeIntervalSince1970: 0) })
        controller.loadViewIfNeeded()
        controller.nowButton.isEnabled = false
        XCTAssertThrowsError(try controller.nowButton.sendUserEvent(.touchUpInside)) { error in
            XCTAssertEqual((error as? WidgetInputError)?.code, .disabled)
        }
        XCTAssertEqual(controller.dateField.text, "")
    }
}
