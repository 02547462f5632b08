import RxCore
import RxWidgets
import XCTest

final class AlertControllerTests: XCTestCase {
    private var stack: PresentationStack!
    private var root: ViewController!
    private var log: [String] = []

    override func setUp() {
        super.setUp()
        stack = PresentationStack()
        root = ViewController()
        root.presentationHost = stack
        log = []
        stack.onPresent = { [unowned self] in self.log.append("present \(type(of: $0))") }
        stack.onDismiss = { [unowned self] in self.log.append("dismiss \(type(of: $0))") }
    }

    override func tearDown() {
        root.presentationHost = nil
        super.tearDown()
    }

    private func loginAlert() -> AlertController {
        let alert = AlertController(title: "Log in", message: "Who are you?", preferredStyle: .alert)
        alert.addTextField { $0.placeholder = "Name" }
        alert.addTextField { $0.isSecureTextEntry = true }
        alert.addAction(AlertAction(title: "Cancel", style: .cancel) { [unowned self] _ in self.log.append("cancel") })
        let ok = AlertAction(title: "OK", style: .default) { [unowned self, unowned alert] _ in
            self.log.append("ok \(alert.textFields!.map { $0.text ?? "" }) presented: \(self.root.presentedViewController != nil)")
        }
        alert.addAction(ok)
        alert.preferredAction = ok
        return alert
    }

    private func code(_ body: () throws -> Void) -> String {
        do {
            try body()
            return "ok"
        } catch let error as WidgetInputError {
            return error.code.rawValue
        } catch {
            return "\(error)"
        }
    }

    func testPresentShowsTheAlertAndDismissHidesIt() {
        let alert = loginAlert()
        var completed = false
        root.present(alert, animated: true) { completed = true }
        XCTAssertTrue(completed)
        XCTAssertTrue(root.presentedViewController === alert)
        XCTAssertTrue(alert.presentingViewController === root)
        XCTAssertEqual(log, ["present AlertController"])
        root.dismiss(animated: true)
        XCTAssertNil(root.presentedViewController)
        XCTAssertNil(alert.presentingViewController)
        XCTAssertEqual(log, ["present AlertController", "dismiss AlertController"])
    }

    func testTheAlertsWidgetDescribesIt() {
        let alert = loginAlert()
        let snapshot = alert.alertView.snapshot()
        XCTAssertEqual(alert.alertView.kind, "alertController")
        XCTAssertEqual(snapshot["title"], .string("Log in"))
        XCTAssertEqual(snapshot["message"], .string("Who are you?"))
        XCTAssertEqual(snapshot["preferredStyle"], .string("alert"))
        XCTAssertEqual(snapshot["actions"], .rows([
            ListRow(id: "0", fields: ["title": .string("Cancel"), "style": .string("cancel")]),
            ListRow(id: "1", fields: ["title": .string("OK"), "style": .string("default"), "isPreferred": .bool(true)]),
        ]))
        XCTAssertEqual(alert.textFields?.count, 2)
        XCTAssertNil(AlertController(title: nil, message: nil, preferredStyle: .alert).textFields)
    }

    func testChoosingAnActionSetsTheTextsDismissesThenRunsTheHandler() throws {
        let alert = loginAlert()
        root.present(alert, animated: true)
        let bag = DisposeBag()
        alert.textFields![0].rx.text.orEmpty.skip(1).subscribe(onNext: { [unowned self] in self.log.append("typed \($0)") })
            .disposed(by: bag)
        try alert.alertView.receive(WidgetEvent(name: "actionTriggered", action: 1, value: .strings(["ada", "secret"])))
        XCTAssertEqual(log, ["present AlertController", "typed ada", "dismiss AlertController",
                             "ok [\"ada\", \"secret\"] presented: false"])
    }

    func testBadActionsThrowStableCodesAndLeaveTheAlertUp() {
        let alert = loginAlert()
        XCTAssertEqual(code { try alert.alertView.receive(WidgetEvent(name: "actionTriggered", action: 0)) }, "unknown-action",
                       "not shown")
        root.present(alert, animated: false)
        XCTAssertEqual(code { try alert.alertView.receive(WidgetEvent(name: "actionTriggered", action: 2)) }, "unknown-action")
        XCTAssertEqual(code { try alert.alertView.receive(WidgetEvent(name: "actionTriggered")) }, "bad-value")
        XCTAssertEqual(code { try alert.alertView.receive(WidgetEvent(name: "actionTriggered", action: 1, value: .strings(["one"]))) },
                       "bad-value")
        XCTAssertEqual(code { try alert.alertView.receive(WidgetEvent(name: "touchUpInside", action: 1)) }, "unknown-event")
        alert.actions[1].isEnabled = false
        XCTAssertEqual(code { try alert.alertView.receive(WidgetEvent(name: "actionTriggered", action: 1)) }, "disabled")
        XCTAssertTrue(root.presentedViewController === alert)
        XCTAssertEqual(log, ["present AlertController"])
    }

    func testEnablingAnActionIsAChangeOfTheActions() {
        let alert = loginAlert()
        let tree = widgetTestTree(["alert": alert.alertView])
        alert.actions[1].isEnabled = false
        XCTAssertEqual(widgetTestChanges(tree), ["alert.actions = 2 rows"])
        XCTAssertEqual(alert.alertView.snapshot()["actions"], .rows([
            ListRow(id: "0", fields: ["title": .string("Cancel"), "style": .string("cancel")]),
            ListRow(id: "1", fields: ["title": .string("OK"), "style": .string("default"), "isPreferred": .bool(true),
                                      "isEnabled": .bool(false)]),
        ]))
        alert.message = "Still you?"
        XCTAssertEqual(widgetTestChanges(tree), ["alert.message = \"Still you?\""])
    }

    func testUIKitsMistakesAreReportedNotCrashes() {
        let sheet = AlertController(title: nil, message: nil, preferredStyle: .actionSheet)
        let other = AlertController(title: nil, message: nil, preferredStyle: .alert)
        let errors = widgetTestBindingErrors {
            sheet.addTextField()
            sheet.addAction(AlertAction(title: "Cancel", style: .cancel))
            sheet.addAction(AlertAction(title: "Also cancel", style: .cancel))
            ViewController().present(other, animated: true)
            root.present(sheet, animated: true)
            root.present(other, animated: true)
        }
        XCTAssertEqual(errors, [
            "text fields can only be added to an alert of style .alert",
            "an alert can have only one action of style .cancel",
            "present(_:animated:) on a view controller that is not in a scene",
            "present(_:animated:) while already presenting (dismiss first)",
        ])
        XCTAssertEqual(sheet.actions.count, 1)
        XCTAssertNil(sheet.textFields)
    }

    func testAHandlerCanPresentTheNextAlert() throws {
        let first = AlertController(title: "Sure?", message: nil, preferredStyle: .alert)
        let second = AlertController(title: "Done", message: nil, preferredStyle: .alert)
        first.addAction(AlertAction(title: "Yes", style: .destructive) { [unowned self] _ in
            self.root.present(second, animated: true)
        })
        root.present(first, animated: true)
        try first.alertView.receive(WidgetEvent(name: "actionTriggered", action: 0))
        XCTAssertTrue(root.presentedViewController === second)
    }
}
