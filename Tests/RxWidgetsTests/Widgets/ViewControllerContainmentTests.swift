import RxWidgets
import XCTest

/// A controller that logs UIKit's containment hooks.
private final class ChildController: ViewController {
    let name: String
    let log: Log

    final class Log { var entries: [String] = [] }

    init(_ name: String, _ log: Log) {
        self.name = name
        self.log = log
        super.init()
    }

    private func name(_ controller: ViewController?) -> String { (controller as? ChildController)?.name ?? "nil" }

    override func willMove(toParent parent: ViewController?) {
        log.entries.append("\(name).willMove(toParent: \(name(parent)))")
    }

    override func didMove(toParent parent: ViewController?) {
        log.entries.append("\(name).didMove(toParent: \(name(parent))) (parent \(name(self.parent)))")
    }

    override func setEditing(_ editing: Bool, animated: Bool) {
        super.setEditing(editing, animated: animated)
        log.entries.append("\(name).setEditing(\(editing), animated: \(animated))")
    }
}

final class ViewControllerContainmentTests: XCTestCase {
    private let log = ChildController.Log()

    /// The container pattern UIKit documents: addChild, add the view, didMove.
    func testAddChildCallsWillMoveAndTheContainerCallsDidMove() {
        let container = ChildController("container", log), child = ChildController("child", log)
        container.addChild(child)
        XCTAssertEqual(log.entries, ["child.willMove(toParent: container)"], "addChild calls willMove, not didMove")
        XCTAssertTrue(child.parent === container)
        XCTAssertTrue(container.children.elementsEqual([child], by: ===))
        container.view.addSubview(child.view)
        child.didMove(toParent: container)
        XCTAssertEqual(log.entries.last, "child.didMove(toParent: container) (parent container)")
    }

    /// Removal: the container calls willMove(nil); removeFromParent calls didMove(nil).
    func testRemoveFromParentCallsDidMoveWithNil() {
        let container = ChildController("container", log), child = ChildController("child", log)
        container.addChild(child)
        log.entries = []
        child.willMove(toParent: nil)
        child.view.removeFromSuperview()
        child.removeFromParent()
        XCTAssertEqual(log.entries, ["child.willMove(toParent: nil)", "child.didMove(toParent: nil) (parent nil)"])
        XCTAssertNil(child.parent)
        XCTAssertTrue(container.children.isEmpty)
        log.entries = []
        child.removeFromParent()
        XCTAssertEqual(log.entries, [], "without a parent nothing happens")
    }

    func testAddingAChildOfAnotherParentMovesIt() {
        let first = ChildController("first", log), second = ChildController("second", log)
        let child = ChildController("child", log)
        first.addChild(child)
        log.entries = []
        second.addChild(child)
        XCTAssertEqual(log.entries, [
            "child.didMove(toParent: nil) (parent nil)",  // removeFromParent on the way
            "child.willMove(toParent: second)",
        ])
        XCTAssertTrue(first.children.isEmpty)
        XCTAssertTrue(child.parent === second)
    }

    func testChildrenKeepTheirOrderAndNoCycleIsMade() {
        let root = ChildController("root", log), a = ChildController("a", log), b = ChildController("b", log)
        root.addChild(a)
        root.addChild(b)
        root.addChild(a)  // already here: nothing
        XCTAssertTrue(root.children.elementsEqual([a, b], by: ===))
        a.addChild(root)  // an ancestor: nothing
        a.addChild(a)
        XCTAssertNil(root.parent)
        XCTAssertTrue(a.children.isEmpty)
    }

    func testTheParentRetainsItsChildrenAndAnOrphanHasNoParent() {
        weak var weakChild: ViewController?
        let container = ViewController()
        do {
            let child = ViewController()
            weakChild = child
            container.addChild(child)
        }
        XCTAssertNotNil(weakChild)
        let survivor = ViewController()
        do {
            let parent = ViewController()
            parent.addChild(survivor)
        }
        XCTAssertNil(survivor.parent)
    }

    func testTitleAndTheEditButtonItemFollowEditing() {
        let controller = ChildController("list", log)
        XCTAssertNil(controller.title)
        controller.title = "Inbox"
        XCTAssertEqual(controller.title, "Inbox")
        XCTAssertEqual(controller.navigationItem.title, "Inbox", "the navigation item starts from the title")
        controller.title = "Archive"
        XCTAssertEqual(controller.navigationItem.title, "Archive", "and follows it")
        XCTAssertFalse(controller.isEditing)
        let edit = controller.editButtonItem
        XCTAssertTrue(edit === controller.editButtonItem, "one item")
        XCTAssertEqual(edit.title, "Edit")
        controller.setEditing(true, animated: true)
        XCTAssertTrue(controller.isEditing)
        XCTAssertEqual(edit.title, "Done")
        XCTAssertEqual(edit.style, .done)
        log.entries = []
        edit.sendActions(for: .primaryActionTriggered)  // a tap on the item toggles, animated
        XCTAssertEqual(log.entries, ["list.setEditing(false, animated: true)"])
        XCTAssertFalse(controller.isEditing)
        XCTAssertEqual(edit.title, "Edit")
        controller.isEditing = true  // the property: not animated
        XCTAssertEqual(log.entries.last, "list.setEditing(true, animated: false)")
    }
}
