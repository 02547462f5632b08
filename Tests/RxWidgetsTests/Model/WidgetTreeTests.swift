import Foundation
import RxCore
import RxWidgets
import XCTest

final class WidgetTreeTests: XCTestCase {
    func testIDsFromAddFromTheWidgetOrMadeUp() throws {
        let tree = WidgetTree()
        let named = try tree.add(Label(id: "title"))
        let renamed = try tree.add(Label(id: "ignored"), id: "subtitle")
        let anonymous = try tree.add(Slider())
        XCTAssertEqual(named.id, "title")
        XCTAssertEqual(renamed.id, "subtitle")
        XCTAssertEqual(anonymous.id, "slider-1")
        XCTAssertTrue(tree.widget(withID: "subtitle") === renamed)
        XCTAssertNil(tree.widget(withID: "ignored"))
        XCTAssertEqual(tree.widgets.map(\.id), ["title", "subtitle", "slider-1"])
    }

    func testDuplicateIDsAndSecondTreesAreErrors() throws {
        let tree = WidgetTree()
        let label = try tree.add(Label(), id: "a")
        XCTAssertThrowsError(try tree.add(Label(), id: "a")) { error in
            XCTAssertEqual("\(error)", "duplicate widget id 'a'")
        }
        XCTAssertThrowsError(try WidgetTree().add(label, id: "b"))
        XCTAssertThrowsError(try tree.add(label))
    }

    func testRenamingReindexes() throws {
        let tree = WidgetTree()
        let label = try tree.add(Label(), id: "a")
        label.id = "b"
        XCTAssertNil(tree.widget(withID: "a"))
        XCTAssertTrue(tree.widget(withID: "b") === label)
    }

    func testChangesAreRecordedOnlyInATreeAndOnlyWhenTheValueChanges() throws {
        let label = Label()
        label.text = "before the tree" // not recorded
        let tree = WidgetTree()
        try tree.add(label, id: "label")
        XCTAssertFalse(tree.hasPendingChanges)
        label.text = "before the tree" // same value
        XCTAssertFalse(tree.hasPendingChanges)
        label.text = "now"
        XCTAssertEqual(tree.takeChanges(), [
            WidgetChange(widgetID: "label", property: "text", value: .string("now"), oldValue: .string("before the tree")),
        ])
        XCTAssertEqual(tree.takeChanges(), [], "taken")
    }

    func testChangesAreCoalescedPerPropertyInFirstChangeOrder() throws {
        let label = Label()
        let slider = Slider()
        let tree = widgetTestTree(["label": label, "slider": slider])
        label.text = "1"
        slider.value = 0.1
        label.textColor = .red
        label.text = "2"
        slider.value = 0.2
        XCTAssertEqual(tree.takeChanges().map(\.description), [
            "label.text = \"2\"", "slider.value = 0.2", "label.textColor = #ff0000ff",
        ])
        let changes = widgetTestChanges(tree)
        XCTAssertEqual(changes, [])
    }

    func testAPropertyThatEndsWhereItStartedIsLeftOut() {
        let label = Label()
        let tree = widgetTestTree(["label": label])
        label.isHidden = true
        label.isHidden = false
        label.text = "x"
        XCTAssertEqual(widgetTestChanges(tree), ["label.text = \"x\""])
    }

    func testOnChangesPendingOncePerBatch() {
        let label = Label()
        let tree = widgetTestTree(["label": label])
        var batches = 0
        tree.onChangesPending = { batches += 1 }
        label.text = "a"
        label.text = "b"
        label.alpha = 0.5
        XCTAssertEqual(batches, 1)
        _ = tree.takeChanges()
        label.text = "c"
        XCTAssertEqual(batches, 2)
    }

    func testRemovingAWidgetDropsItsPendingChanges() throws {
        let label = Label()
        let other = Label()
        let tree = widgetTestTree(["label": label, "other": other])
        label.text = "a"
        other.text = "b"
        tree.remove(label)
        label.text = "c"
        XCTAssertEqual(widgetTestChanges(tree), ["other.text = \"b\""])
        XCTAssertNil(tree.widget(withID: "label"))
        try WidgetTree().add(label) // free to join another tree
    }

    /// Pending changes do not retain their widget: a removed widget with changes pending
    /// may go at once, in a small batch and in one past the linear search.
    func testARemovedWidgetWithPendingChangesCanGoBeforeTheBatchIsTaken() {
        for count in [2, 20] {
            let labels = (0..<count).map { _ in Label() }
            let tree = WidgetTree()
            for (index, label) in labels.enumerated() { XCTAssertNoThrow(try tree.add(label, id: "l\(index)")) }
            weak var gone: Label?
            do {
                let doomed = Label()
                gone = doomed
                XCTAssertNoThrow(try tree.add(doomed, id: "doomed"))
                doomed.text = "x"
                for label in labels { label.text = "a" }
                doomed.text = "y"
                tree.remove(doomed)
            }
            XCTAssertNil(gone, "the pending change must not keep the widget (\(count) widgets)")
            labels[0].text = "b"
            let changes = tree.takeChanges()
            XCTAssertEqual(changes.count, count)
            XCTAssertEqual(changes.first?.widgetID, "l0")
            XCTAssertEqual(changes.first?.value, .string("b"))
            XCTAssertFalse(changes.contains { $0.widgetID == "doomed" })
        }
    }

    func testTheTreeKeepsItsWidgetsAliveAndNothingElseDoes() {
        var tree: WidgetTree? = WidgetTree()
        weak var weakLabel: Label?
        do {
            let label = Label()
            weakLabel = label
            _ = try? tree?.add(label, id: "label")
        }
        XCTAssertNotNil(weakLabel)
        tree = nil
        XCTAssertNil(weakLabel)
    }

    func testSnapshotListsEveryWidgetWithItsKindAndProperties() {
        let field = TextField()
        field.placeholder = "Email"
        let tree = widgetTestTree(["email": field])
        XCTAssertEqual(tree.snapshot(), [
            WidgetSnapshot(id: "email", kind: "textField", properties: [
                "backgroundColor": .null, "isHidden": .bool(false), "alpha": .number(1),
                "isEnabled": .bool(true), "text": .string(""), "placeholder": .string("Email"),
                "isSecureTextEntry": .bool(false), "focused": .bool(false),
            ]),
        ])
    }

    func testApplyUserInputByPropertyName() throws {
        let slider = Slider()
        XCTAssertEqual(slider.valueProperty, "value")
        XCTAssertEqual(try slider.applyUserInput(property: "value", value: .number(-3)), .number(0))
        XCTAssertThrowsError(try slider.applyUserInput(property: "minimumValue", value: .number(0))) { error in
            XCTAssertEqual((error as? WidgetInputError)?.code, .unknownProperty)
        }
        XCTAssertThrowsError(try Label().applyUserInput(property: "text", value: .string("x"))) { error in
            XCTAssertEqual((error as? WidgetInputError)?.code, .unknownProperty)
            XCTAssertEqual("\(error)", "unknown-property: label '' has no property 'text' that users can set")
        }
    }
}
