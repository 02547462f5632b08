import Foundation
@testable import RxWidgets
import XCTest

final class StackViewTests: XCTestCase {
    func testArrangingAlsoMakesASubviewInOrder() {
        let a = Label(), b = Button(), c = Switch()
        let stack = StackView(arrangedSubviews: [a, b])
        XCTAssertTrue(stack.arrangedSubviews.elementsEqual([a, b], by: ===))
        XCTAssertTrue(stack.subviews.elementsEqual([a, b], by: ===))
        stack.insertArrangedSubview(c, at: 0)
        XCTAssertTrue(stack.arrangedSubviews.elementsEqual([c, a, b], by: ===))
        XCTAssertTrue(stack.subviews.elementsEqual([a, b, c], by: ===), "a new subview goes on top, whatever its stack index")
        XCTAssertTrue(c.superview === stack)
    }

    func testArrangingAnArrangedViewAgainMovesIt() {
        let a = View(), b = View(), c = View()
        let stack = StackView(arrangedSubviews: [a, b, c])
        stack.addArrangedSubview(a)
        XCTAssertTrue(stack.arrangedSubviews.elementsEqual([b, c, a], by: ===))
        stack.insertArrangedSubview(a, at: 1)
        XCTAssertTrue(stack.arrangedSubviews.elementsEqual([b, a, c], by: ===))
        stack.insertArrangedSubview(c, at: 99)
        XCTAssertTrue(stack.arrangedSubviews.elementsEqual([b, a, c], by: ===), "clamped to the end")
        XCTAssertEqual(stack.subviews.count, 3, "never added twice")
    }

    /// UIKit's quirk: removeArrangedSubview leaves the view a subview.
    func testRemoveArrangedSubviewKeepsTheSubview() {
        let a = View(), b = View()
        let stack = StackView(arrangedSubviews: [a, b])
        stack.removeArrangedSubview(a)
        XCTAssertTrue(stack.arrangedSubviews.elementsEqual([b], by: ===))
        XCTAssertTrue(a.superview === stack, "still a subview")
        XCTAssertEqual(stack.subviews.count, 2)
    }

    func testRemovingFromSuperviewOrMovingAwayAlsoStopsArranging() {
        let a = View(), b = View(), c = View()
        let stack = StackView(arrangedSubviews: [a, b, c])
        a.removeFromSuperview()
        XCTAssertTrue(stack.arrangedSubviews.elementsEqual([b, c], by: ===))
        let other = View()
        other.addSubview(b)
        XCTAssertTrue(stack.arrangedSubviews.elementsEqual([c], by: ===))
        XCTAssertTrue(stack.subviews.elementsEqual([c], by: ===))
    }

    func testHiddenArrangedViewsKeepTheirPlace() {
        let a = View(), b = View()
        let stack = StackView(arrangedSubviews: [a, b])
        a.isHidden = true
        XCTAssertTrue(stack.arrangedSubviews.elementsEqual([a, b], by: ===))
    }

    func testDefaultsAndCustomSpacingAreUIKits() {
        let a = View(), b = View(), stranger = View()
        let stack = StackView(arrangedSubviews: [a, b])
        XCTAssertEqual(stack.axis, .horizontal)
        XCTAssertEqual(stack.distribution, .fill)
        XCTAssertEqual(stack.alignment, .fill)
        XCTAssertEqual(stack.spacing, 0)
        XCTAssertFalse(stack.isLayoutMarginsRelativeArrangement)
        XCTAssertEqual(StackView.Alignment.top, .leading)
        XCTAssertEqual(StackView.Alignment.bottom, .trailing)
        XCTAssertEqual(stack.customSpacing(after: a), StackView.spacingUseDefault)
        stack.setCustomSpacing(24, after: a)
        XCTAssertEqual(stack.customSpacing(after: a), 24)
        stack.setCustomSpacing(StackView.spacingUseDefault, after: a)
        XCTAssertEqual(stack.customSpacing(after: a), StackView.spacingUseDefault, "back to the stack's spacing")
        stack.setCustomSpacing(10, after: stranger)
        XCTAssertEqual(stack.customSpacing(after: stranger), StackView.spacingUseDefault, "not arranged: ignored")
        stack.setCustomSpacing(6, after: b)
        stack.removeArrangedSubview(b)
        stack.addArrangedSubview(b)
        XCTAssertEqual(stack.customSpacing(after: b), StackView.spacingUseDefault, "a view's custom gap goes with its arrangement")
    }

    func testLayoutChangesAreRecordedForTheClient() {
        let tree = WidgetTree()
        let stack = StackView()
        let title = Label(), subtitle = Label()
        _ = try! tree.add(stack, id: "profile")
        _ = try! tree.add(title, id: "name")
        _ = try! tree.add(subtitle, id: "role")
        XCTAssertEqual(stack.snapshot()["axis"], .string("horizontal"))
        XCTAssertEqual(stack.snapshot()["arrangement"], .rows([]))
        var changes: [WidgetChange] = []
        tree.takeChanges(into: &changes)
        stack.axis = .vertical
        stack.spacing = 8
        stack.alignment = .center
        stack.addArrangedSubview(title)
        stack.addArrangedSubview(subtitle)
        stack.setCustomSpacing(StackView.spacingUseSystem, after: title)
        changes = []
        tree.takeChanges(into: &changes)
        let latest = Dictionary(changes.map { ($0.property, $0.value) }, uniquingKeysWith: { _, last in last })
        XCTAssertEqual(latest["axis"], .string("vertical"))
        XCTAssertEqual(latest["spacing"], .number(8))
        XCTAssertEqual(latest["alignment"], .string("center"))
        XCTAssertEqual(latest["arrangement"], .rows([
            ListRow(id: "name", fields: ["spacingAfter": .string("system")]),
            ListRow(id: "role", fields: [:]),
        ]))
        XCTAssertEqual(stack.kind, "stackView")
    }

    func testUIKitStyleCodeCompiles() {
        let stack = StackView(arrangedSubviews: [Label(), Button()])
        stack.axis = .vertical
        stack.distribution = .fillEqually
        stack.alignment = .firstBaseline
        stack.spacing = 12
        stack.isLayoutMarginsRelativeArrangement = true
        let container = View()
        container.addSubview(stack)
        XCTAssertTrue(stack.isDescendant(of: container))
        XCTAssertEqual(stack.arrangedSubviews.count, 2)
    }
}
