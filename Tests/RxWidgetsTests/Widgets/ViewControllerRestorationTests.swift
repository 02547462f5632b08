import RxCore
import RxWidgets
import XCTest

/// A screen that knows the screens under it by name: `a` → `a/b` → …, each pushed
/// screen named by its restoration identifier.
private final class Folder: ViewController, ScreenRestoring {
    let path: [String]
    private(set) var asked: [String] = []

    init(_ path: [String]) {
        self.path = path
        super.init()
    }

    func viewController(forRestorationIdentifier identifier: String) -> ViewController? {
        asked.append(identifier)
        return identifier.hasPrefix("x") ? nil : Folder(path + [identifier])
    }
}

/// UIKit's `restorationIdentifier` and the URL's screen path: ``ScreenRestoring``
/// rebuilds a ``NavigationController``'s stack one component at a time.
final class ViewControllerRestorationTests: XCTestCase {
    func testRestorationIdentifierIsNilUntilSetAndGoesWithTheController() {
        var controller: ViewController? = ViewController()
        XCTAssertNil(controller?.restorationIdentifier)
        controller?.restorationIdentifier = "detail"
        XCTAssertEqual(controller?.restorationIdentifier, "detail")
        weak var gone = controller
        controller = nil
        XCTAssertNil(gone)
        XCTAssertNil(ViewController().restorationIdentifier, "a new controller at the same address starts without one")
    }

    func testRestoreScreensPushesEachComponentAndStopsAtAnUnknownOne() {
        let root = Folder([])
        let navigation = NavigationController(rootViewController: root)
        XCTAssertEqual(navigation.restoreScreens(["a", "b", "x", "c"]), 2)
        XCTAssertEqual(navigation.viewControllers.compactMap { ($0 as? Folder)?.path }, [[], ["a"], ["a", "b"]])
        XCTAssertEqual(navigation.restorationPath, ["a", "b"], "pushed screens without an identifier get the component")
        XCTAssertEqual((navigation.topViewController as? Folder)?.asked, ["x"], "the walk stopped at x")
        XCTAssertEqual(root.asked, ["a"])
    }

    func testRestoreScreensKeepsScreensAlreadyNamedAndIgnoresAnotherPath() {
        let navigation = NavigationController(rootViewController: Folder([]))
        navigation.restoreScreens(["a"])
        XCTAssertEqual(navigation.restoreScreens(["a", "b"]), 1, "a is there already: only b is pushed")
        XCTAssertEqual(navigation.restorationPath, ["a", "b"])
        XCTAssertEqual(navigation.restoreScreens(["z"]), 0, "a path that disagrees with the stack changes nothing")
        XCTAssertEqual(navigation.viewControllers.count, 3)
    }

    func testTheRestorationPathEndsAtTheFirstScreenWithoutAnIdentifier() {
        let navigation = NavigationController(rootViewController: ViewController())
        let named = ViewController()
        named.restorationIdentifier = "one"
        navigation.pushViewController(named, animated: false)
        navigation.pushViewController(ViewController(), animated: false)
        let last = ViewController()
        last.restorationIdentifier = "three"
        navigation.pushViewController(last, animated: false)
        XCTAssertEqual(navigation.restorationPath, ["one"])
        navigation.popViewController(animated: false)
        navigation.popViewController(animated: false)
        XCTAssertEqual(navigation.restorationPath, ["one"])
        navigation.popViewController(animated: false)
        XCTAssertEqual(navigation.restorationPath, [])
    }
}
