import RxCore
import RxWidgets
import XCTest

/// A screen host over a widget tree, as the server is: a controller's widgets are its
/// `View` properties named by hand here.
private final class TreeScreenHost: ScreenHost {
    let tree = WidgetTree()
    var log: [String] = []

    func addWidgets(of controller: ViewController, prefix: String?) -> [View] {
        guard let screen = controller as? LabelScreen else { return [] }
        addWidget(screen.label, id: prefix.map { "\($0).label" } ?? "label")
        return [screen.label]
    }

    func addWidget(_ widget: View, id: String) {
        try? tree.add(widget, id: id)
        log.append("+\(widget.id)")
    }

    func removeWidgets(_ widgets: [View]) {
        for widget in widgets {
            log.append("-\(widget.id)")
            tree.remove(widget)
        }
    }
}

private final class LabelScreen: ViewController {
    let label = Label()
    let name: String

    init(_ name: String) {
        self.name = name
        super.init()
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        navigationItem.title = name
        label.text = name
    }
}

final class NavigationControllerTests: XCTestCase {
    private func screens(_ navigation: NavigationController) -> [String] {
        guard case .rows(let rows)? = navigation.navigationView.snapshot()["screens"] else { return [] }
        return rows.map { row in
            let title: String
            if case .string(let value)? = row["title"] { title = value } else { title = "-" }
            let back: String
            if case .string(let value)? = row["backTitle"] { back = " <\(value)" } else { back = "" }
            return "\(row.id) \(title)\(back)"
        }
    }

    func testPushAndPopKeepTheStackAsUIKitDoes() {
        let root = LabelScreen("Repos")
        let navigation = NavigationController(rootViewController: root)
        let detail = LabelScreen("Detail")
        navigation.pushViewController(detail, animated: true)
        XCTAssertTrue(navigation.topViewController === detail)
        XCTAssertTrue(detail.navigationController === navigation)
        XCTAssertEqual(navigation.viewControllers.count, 2)
        XCTAssertEqual(detail.label.text, "Detail", "the pushed controller's view was loaded")
        XCTAssertEqual(screens(navigation), ["screen-1 Repos", "screen-2 Detail <Repos"])

        XCTAssertTrue(navigation.popViewController(animated: true) === detail)
        XCTAssertNil(detail.navigationController)
        XCTAssertNil(navigation.popViewController(animated: true), "the root stays")
        XCTAssertEqual(screens(navigation), ["screen-1 Repos"])
    }

    func testPopToRootAndSetViewControllers() {
        let navigation = NavigationController(rootViewController: LabelScreen("A"))
        let b = LabelScreen("B")
        let c = LabelScreen("C")
        navigation.pushViewController(b, animated: false)
        navigation.pushViewController(c, animated: false)
        XCTAssertEqual(navigation.popToRootViewController(animated: true)?.map { ($0 as! LabelScreen).name }, ["B", "C"])
        navigation.setViewControllers([LabelScreen("X"), b], animated: false)
        XCTAssertEqual(navigation.viewControllers.map { ($0 as! LabelScreen).name }, ["X", "B"])
        XCTAssertEqual(screens(navigation), ["screen-4 X", "screen-5 B <X"])
    }

    func testPushingAControllerTwiceIsReported() {
        let navigation = NavigationController(rootViewController: LabelScreen("A"))
        let b = LabelScreen("B")
        let errors = widgetTestBindingErrors {
            navigation.pushViewController(b, animated: false)
            navigation.pushViewController(b, animated: false)
        }
        XCTAssertEqual(errors, ["the view controller is already on a navigation stack"])
        XCTAssertEqual(navigation.viewControllers.count, 2)
    }

    func testAHostGetsEachScreensWidgetsAndBarItemsWhileTheyAreOnTheStack() throws {
        let host = TreeScreenHost()
        let root = LabelScreen("Repos")
        let navigation = NavigationController(rootViewController: root)
        try host.tree.add(navigation.navigationView, id: "navigation")
        navigation.screenHost = host
        let add = BarButtonItem(barButtonSystemItem: .add)
        root.navigationItem.rightBarButtonItem = add
        XCTAssertEqual(host.log, ["+label", "+screen-1.rightBarButtonItem"])

        let detail = LabelScreen("Detail")
        navigation.pushViewController(detail, animated: true)
        detail.navigationItem.leftBarButtonItem = BarButtonItem(title: "Close", style: .plain)
        detail.navigationItem.leftBarButtonItem = nil
        XCTAssertEqual(host.log, ["+label", "+screen-1.rightBarButtonItem", "+screen-2.label",
                                  "+screen-2.leftBarButtonItem", "-screen-2.leftBarButtonItem"])
        guard case .rows(let rows)? = navigation.navigationView.snapshot()["screens"] else { return XCTFail("rows") }
        XCTAssertEqual(rows[0]["rightBarButtonItem"], .string("screen-1.rightBarButtonItem"))
        XCTAssertEqual(rows[1]["widgets"], .strings(["screen-2.label"]))

        // The user's Back pops; a Back naming a screen that is not on top is refused.
        var codes: [String] = []
        for event in [WidgetEvent(name: "back", row: "screen-1"), WidgetEvent(name: "back", row: "screen-2"),
                      WidgetEvent(name: "back"), WidgetEvent(name: "forward")] {
            do {
                try navigation.navigationView.receive(event)
                codes.append("ok")
            } catch {
                codes.append(error.code.rawValue)
            }
        }
        XCTAssertEqual(codes, ["unknown-row", "ok", "disabled", "unknown-event"])
        XCTAssertEqual(host.log.suffix(1), ["-screen-2.label"])
        navigation.screenHost = nil
    }

    func testHidingTheBackButtonRefusesBack() {
        let navigation = NavigationController(rootViewController: LabelScreen("A"))
        let b = LabelScreen("B")
        navigation.pushViewController(b, animated: false)
        b.navigationItem.setHidesBackButton(true, animated: false)
        XCTAssertThrowsError(try navigation.navigationView.receive(WidgetEvent(name: "back")))
        XCTAssertEqual(navigation.viewControllers.count, 2)
    }

    func testBarButtonItemTapsAreRxTap() throws {
        let item = BarButtonItem(title: "Edit", style: .plain)
        var taps = 0
        let subscription = item.rx.tap.subscribe(onNext: { taps += 1 })
        try item.sendUserEvent(.touchUpInside)
        XCTAssertEqual(taps, 1)
        XCTAssertEqual(item.snapshot()["title"], .string("Edit"))
        XCTAssertEqual(BarButtonItem(barButtonSystemItem: .done).style, .done)
        subscription.dispose()
    }
}
