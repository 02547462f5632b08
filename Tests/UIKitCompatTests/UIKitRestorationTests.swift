import RxTesting
import UIKitCompat
import XCTest

// iOS code names a screen with `restorationIdentifier`; on Bindery that names it in the
// page URL, and `ScreenRestoring` (Bindery's hook) rebuilds it from there.

private final class InboxViewController: UIViewController, ScreenRestoring {
    func viewController(forRestorationIdentifier identifier: String) -> UIViewController? {
        guard identifier.hasPrefix("message-") else { return nil }
        let message = MessageViewController()
        message.restorationIdentifier = identifier
        return message
    }
}

private final class MessageViewController: UIViewController {
    override func viewDidLoad() {
        super.viewDidLoad()
        navigationItem.title = restorationIdentifier
    }
}

final class UIKitRestorationTests: XCTestCase {
    func testRestorationIdentifiersNameTheStackAndRebuildIt() {
        let navigation = UINavigationController(rootViewController: InboxViewController())
        XCTAssertEqual(navigation.restoreScreens(["message-7", "attachment"]), 1)
        XCTAssertEqual(navigation.topViewController?.restorationIdentifier, "message-7")
        XCTAssertEqual(navigation.topViewController?.navigationItem.title, "message-7")
        XCTAssertEqual(navigation.restorationPath, ["message-7"])
        navigation.popViewController(animated: true)
        XCTAssertEqual(navigation.restorationPath, [])
    }
}
