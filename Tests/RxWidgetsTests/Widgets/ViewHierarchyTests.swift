import Foundation
import RxWidgets
import XCTest

private final class HookLog {
    var entries: [String] = []
}

/// A view that logs UIKit's hierarchy hooks, as a UIKit test would.
private final class LoggingView: View {
    let name: String
    let log: HookLog

    init(_ name: String, _ log: HookLog) {
        self.name = name
        self.log = log
        super.init(frame: .zero)
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }

    private func name(_ view: View?) -> String { (view as? LoggingView)?.name ?? "nil" }

    override func willMove(toSuperview newSuperview: View?) {
        log.entries.append("\(name).willMove(toSuperview: \(name(newSuperview)))")
    }

    override func didMoveToSuperview() {
        log.entries.append("\(name).didMoveToSuperview (superview \(name(superview)))")
    }

    override func didAddSubview(_ subview: View) {
        log.entries.append("\(name).didAddSubview(\(name(subview)))")
    }

    override func willRemoveSubview(_ subview: View) {
        log.entries.append("\(name).willRemoveSubview(\(name(subview))) (still a subview: \(subviews.contains { $0 === subview }))")
    }
}

final class ViewHierarchyTests: XCTestCase {
    private let log = HookLog()

    func testAddSubviewAppendsOnTopAndSetsTheSuperview() {
        let root = View(), a = View(), b = View()
        root.addSubview(a)
        root.addSubview(b)
        XCTAssertTrue(root.subviews.elementsEqual([a, b], by: ===))
        XCTAssertTrue(a.superview === root)
        XCTAssertNil(root.superview)
    }

    func testHooksRunInUIKitsOrderOnAddAndRemove() {
        let root = LoggingView("root", log), child = LoggingView("child", log)
        root.addSubview(child)
        XCTAssertEqual(log.entries, [
            "child.willMove(toSuperview: root)",
            "child.didMoveToSuperview (superview root)",
            "root.didAddSubview(child)",
        ])
        log.entries = []
        child.removeFromSuperview()
        XCTAssertEqual(log.entries, [
            "root.willRemoveSubview(child) (still a subview: true)",
            "child.willMove(toSuperview: nil)",
            "child.didMoveToSuperview (superview nil)",
        ])
        XCTAssertTrue(root.subviews.isEmpty)
        XCTAssertNil(child.superview)
    }

    func testAddingAViewWithAnotherSuperviewMovesIt() {
        let first = LoggingView("first", log), second = LoggingView("second", log), child = LoggingView("child", log)
        first.addSubview(child)
        log.entries = []
        second.addSubview(child)
        XCTAssertTrue(first.subviews.isEmpty, "a view has one superview")
        XCTAssertTrue(second.subviews.elementsEqual([child], by: ===))
        XCTAssertTrue(child.superview === second)
        XCTAssertEqual(log.entries, [
            "child.willMove(toSuperview: second)",
            "first.willRemoveSubview(child) (still a subview: true)",
            "child.didMoveToSuperview (superview second)",
            "second.didAddSubview(child)",
        ])
    }

    func testAddingAViewAgainBringsItToTheFrontWithoutHooks() {
        let root = LoggingView("root", log), a = LoggingView("a", log), b = LoggingView("b", log)
        root.addSubview(a)
        root.addSubview(b)
        log.entries = []
        root.addSubview(a)
        XCTAssertTrue(root.subviews.elementsEqual([b, a], by: ===))
        XCTAssertEqual(log.entries, [])
    }

    func testASelfOrAncestorCannotBecomeASubview() {
        let root = View(), child = View(), grandchild = View()
        root.addSubview(child)
        child.addSubview(grandchild)
        root.addSubview(root)
        grandchild.addSubview(root)
        XCTAssertNil(root.superview, "no cycle")
        XCTAssertTrue(grandchild.subviews.isEmpty)
        XCTAssertTrue(root.subviews.elementsEqual([child], by: ===))
    }

    func testInsertAtClampsAboveAndBelowPlaceBySibling() {
        let root = View(), a = View(), b = View(), c = View(), d = View(), e = View()
        root.insertSubview(a, at: 10)  // past the end: appended
        root.insertSubview(b, at: -3)  // before the start: first
        XCTAssertTrue(root.subviews.elementsEqual([b, a], by: ===))
        root.insertSubview(c, aboveSubview: b)
        XCTAssertTrue(root.subviews.elementsEqual([b, c, a], by: ===))
        root.insertSubview(d, belowSubview: b)
        XCTAssertTrue(root.subviews.elementsEqual([d, b, c, a], by: ===))
        let stranger = View()
        root.insertSubview(e, aboveSubview: stranger)  // not a subview: on top
        XCTAssertTrue(root.subviews.last === e)
        root.insertSubview(a, at: 0)  // one already here moves
        XCTAssertTrue(root.subviews.elementsEqual([a, d, b, c, e], by: ===))
    }

    func testBringSendAndExchangeReorderOnlyTheirOwnSubviews() {
        let root = View(), a = View(), b = View(), c = View()
        [a, b, c].forEach(root.addSubview)
        root.bringSubviewToFront(a)
        XCTAssertTrue(root.subviews.elementsEqual([b, c, a], by: ===))
        root.sendSubviewToBack(c)
        XCTAssertTrue(root.subviews.elementsEqual([c, b, a], by: ===))
        root.exchangeSubview(at: 0, withSubviewAt: 2)
        XCTAssertTrue(root.subviews.elementsEqual([a, b, c], by: ===))
        root.exchangeSubview(at: 0, withSubviewAt: 9)
        XCTAssertTrue(root.subviews.elementsEqual([a, b, c], by: ===), "an index outside does nothing")
        let other = View(), stranger = View()
        other.addSubview(stranger)
        root.bringSubviewToFront(stranger)
        XCTAssertTrue(stranger.superview === other)
        XCTAssertEqual(root.subviews.count, 3)
    }

    func testIsDescendantAndViewWithTagSearchDepthFirstFromTheViewItself() {
        let root = View(), row = View(), deep = Label(), side = Button()
        root.addSubview(row)
        row.addSubview(deep)
        root.addSubview(side)
        XCTAssertTrue(deep.isDescendant(of: root))
        XCTAssertTrue(root.isDescendant(of: root))
        XCTAssertFalse(root.isDescendant(of: deep))
        XCTAssertFalse(side.isDescendant(of: row))
        deep.tag = 7
        side.tag = 7
        XCTAssertTrue(root.viewWithTag(7) === deep, "depth first: the row's label before the later button")
        XCTAssertTrue(root.viewWithTag(0) === root, "every view's tag starts at 0")
        XCTAssertNil(root.viewWithTag(99))
        XCTAssertTrue(side.viewWithTag(7) === side)
    }

    func testASubviewOutlivingItsSuperviewHasNone() {
        let child = View()
        do {
            let root = View()
            root.addSubview(child)
            XCTAssertNotNil(child.superview)
        }
        XCTAssertNil(child.superview)
    }

    func testTheSuperviewRetainsItsSubviews() {
        let root = View()
        weak var weakChild: View?
        do {
            let child = Label()
            weakChild = child
            root.addSubview(child)
        }
        XCTAssertNotNil(weakChild)
        weakChild?.removeFromSuperview()
        XCTAssertNil(weakChild)
    }

    func testFrameBoundsAndCenterFollowUIKit() {
        let view = View(frame: CGRect(x: 10, y: 20, width: 100, height: 50))
        XCTAssertEqual(view.bounds, CGRect(x: 0, y: 0, width: 100, height: 50))
        XCTAssertEqual(view.center, CGPoint(x: 60, y: 45))
        view.center = CGPoint(x: 100, y: 100)
        XCTAssertEqual(view.frame, CGRect(x: 50, y: 75, width: 100, height: 50))
        view.bounds = CGRect(x: 5, y: 5, width: 40, height: 20)  // resized about the centre
        XCTAssertEqual(view.frame, CGRect(x: 80, y: 90, width: 40, height: 20))
        XCTAssertEqual(view.bounds.origin, CGPoint(x: 5, y: 5))
        view.frame = CGRect(x: 0, y: 0, width: 8, height: 8)  // the bounds origin stays
        XCTAssertEqual(view.bounds, CGRect(x: 5, y: 5, width: 8, height: 8))
        XCTAssertEqual(View().frame, .zero)
    }

    func testUIKitStyleSubclassesCompileAndInitialise() {
        final class RatingView: View {
            let stars = (0..<5).map { _ in Button() }
            override init(frame: CGRect) {
                super.init(frame: frame)
                stars.forEach(addSubview)
            }
            required init?(coder: NSCoder) {
                fatalError("init(coder:) has not been implemented")
            }
        }
        let plain = RatingView()  // UIView's init() goes through init(frame:)
        XCTAssertEqual(plain.subviews.count, 5)
        let framed = RatingView(frame: CGRect(x: 0, y: 0, width: 200, height: 40))
        XCTAssertEqual(framed.frame.width, 200)
        XCTAssertTrue(framed.stars.allSatisfy { $0.superview === framed })
        XCTAssertEqual(Label(coder: NSCoder())?.kind, "label")
    }
}
