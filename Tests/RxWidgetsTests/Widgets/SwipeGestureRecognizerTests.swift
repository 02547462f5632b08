import RxCore
import RxWidgets
import XCTest

final class SwipeGestureRecognizerTests: XCTestCase {
    func testDirectionsAreUIKitsBitsAndGoOnTheWireAsNames() {
        XCTAssertEqual(SwipeGestureRecognizer.Direction.right.rawValue, 1)
        XCTAssertEqual(SwipeGestureRecognizer.Direction.left.rawValue, 2)
        XCTAssertEqual(SwipeGestureRecognizer.Direction.up.rawValue, 4)
        XCTAssertEqual(SwipeGestureRecognizer.Direction.down.rawValue, 8)
        let swipe = SwipeGestureRecognizer()
        XCTAssertEqual(swipe.direction, .right, "UIKit's default")
        XCTAssertEqual(swipe.kind, "swipeGestureRecognizer")
        let label = Label()
        label.addGestureRecognizer(swipe)
        let tree = widgetTestTree(["label": label, "swipe": swipe])
        XCTAssertEqual(swipe.snapshot()["direction"], .strings(["right"]))
        XCTAssertEqual(swipe.snapshot()["view"], .string("label"))
        swipe.direction = [.up, .left]
        XCTAssertEqual(widgetTestChanges(tree), ["swipe.direction = [\"left\", \"up\"]"])
    }

    func testARecognizedSwipeFiresRxEventOnceEnded() throws {
        let swipe = SwipeGestureRecognizer()
        let bag = DisposeBag()
        var states: [GestureRecognizer.State] = []
        swipe.rx.event.subscribe(onNext: { states.append($0.state) }).disposed(by: bag)
        try swipe.receive(WidgetEvent(name: "recognized"))
        try swipe.receive(WidgetEvent(name: "recognized"))
        XCTAssertEqual(states, [.ended, .ended], "discrete: one .ended per swipe")
        XCTAssertEqual(swipe.state, .possible)
        swipe.isEnabled = false
        XCTAssertThrowsError(try swipe.receive(WidgetEvent(name: "recognized")))
        XCTAssertEqual(states.count, 2)
    }
}
