import Bindery
import RxWidgets
import XCTest

/// A scene whose layout names the widget its parameter picks.
private final class PickedLayoutViewController: ViewController, Scene {
    let first = Label()
    let second = Label()
    let picked: String

    init(picked: String) {
        self.picked = picked
        super.init()
    }

    var sceneLayout: SceneLayout? { .column([.widget(picked)]) }
}

/// Hosts of one scene share its layout when it is the same, and keep their own when not.
final class SceneLayoutSharingTests: XCTestCase {
    func testEachSessionGetsItsScenesLayoutWhenItDiffersBetweenSessions() throws {
        let fixture = TableSceneFixture { registry in
            registry.register("picked", title: "Picked") { context in
                PickedLayoutViewController(picked: context.parameters["widget"] ?? "first")
            }
            registry.register("widgets", title: "Widgets") { TestWidgetsViewController() }
        }
        let plain = try fixture.store.createSession(scene: "picked")
        let other = try fixture.store.createSession(scene: "picked", parameters: ["widget": "second"])
        let plainAgain = try fixture.store.createSession(scene: "picked")
        XCTAssertEqual(plain.sceneMessage(resumed: false).layout, .column([.widget("first")]))
        XCTAssertEqual(other.sceneMessage(resumed: false).layout, .column([.widget("second")]))
        XCTAssertEqual(plainAgain.sceneMessage(resumed: false).layout, .column([.widget("first")]))
        XCTAssertEqual(plain.sceneMessage(resumed: false).layout, .column([.widget("first")]),
                       "a later session's layout does not replace an earlier one's")

        let widgets = try fixture.store.createSession(scene: "widgets")
        let widgetsAgain = try fixture.store.createSession(scene: "widgets")
        XCTAssertEqual(widgets.sceneMessage(resumed: false).layout, TestWidgetsViewController().sceneLayout)
        XCTAssertEqual(widgetsAgain.sceneMessage(resumed: false).layout, TestWidgetsViewController().sceneLayout)
    }
}
