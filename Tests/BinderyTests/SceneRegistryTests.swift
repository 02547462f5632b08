import Bindery
import RxWidgets
import XCTest

final class SceneRegistryTests: XCTestCase {
    func testRegistersInOrderAndFindsByName() {
        let registry = makeTestRegistry()
        XCTAssertEqual(registry.scenes.map(\.name), ["echo", "widgets", "board"])
        XCTAssertEqual(registry.scene(named: "board")?.sharing, .shared)
        XCTAssertEqual(registry.scene(named: "echo")?.title, "Echo")
        XCTAssertNil(registry.scene(named: "nope"))
    }

    func testNameValidation() {
        XCTAssertTrue(SceneRegistry.isValidName("date-2_x"))
        XCTAssertFalse(SceneRegistry.isValidName(""))
        XCTAssertFalse(SceneRegistry.isValidName("a/b"))
        XCTAssertFalse(SceneRegistry.isValidName("é"))
    }

    func testReflectionFindsWidgetsInDeclarationOrderUnderPropertyNames() {
        let controller = TestEchoViewController()
        let widgets = SceneWidgets.discover(in: controller)
        XCTAssertEqual(widgets.map(\.id), ["input", "output"])
        XCTAssertTrue(widgets[0].widget === controller.input)
    }

    func testExplicitIDWins() {
        let controller = TestEchoViewController()
        controller.output.id = "result"
        XCTAssertEqual(SceneWidgets.discover(in: controller).map(\.id), ["input", "result"])
    }
}
