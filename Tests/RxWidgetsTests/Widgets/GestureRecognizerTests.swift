import RxCore
import RxWidgets
import XCTest

final class GestureRecognizerTests: XCTestCase {
    func testATapFiresRxEventWithTheRecognizerEnded() throws {
        let view = View()
        let tap = TapGestureRecognizer()
        tap.numberOfTapsRequired = 2
        view.addGestureRecognizer(tap)
        XCTAssertTrue(tap.view === view)
        XCTAssertEqual(view.gestureRecognizers?.count, 1)
        var states: [GestureRecognizer.State] = []
        let subscription = tap.rx.event.subscribe(onNext: { recognizer in
            XCTAssertTrue(recognizer === tap)
            states.append(recognizer.state)
        })
        try tap.receive(WidgetEvent(name: "recognized"))
        XCTAssertEqual(states, [.ended])
        XCTAssertEqual(tap.state, .possible)
        tap.isEnabled = false
        XCTAssertThrowsError(try tap.receive(WidgetEvent(name: "recognized")))
        XCTAssertEqual(states.count, 1)
        subscription.dispose()
    }

    func testALongPressBeginsThenEnds() throws {
        let press = LongPressGestureRecognizer()
        var states: [GestureRecognizer.State] = []
        let subscription = press.rx.event.subscribe(onNext: { states.append($0.state) })
        try press.receive(WidgetEvent(name: "recognized"))
        XCTAssertEqual(states, [.began, .ended])
        subscription.dispose()
    }

    func testMovingARecognizerDetachesItFromItsOldView() {
        let first = View()
        let second = View()
        second.id = "second"
        let tap = TapGestureRecognizer()
        first.addGestureRecognizer(tap)
        second.addGestureRecognizer(tap)
        XCTAssertNil(first.gestureRecognizers)
        XCTAssertEqual(tap.snapshot()["view"], .string("second"))
        XCTAssertEqual(tap.snapshot()["numberOfTapsRequired"], .number(1))
        second.removeGestureRecognizer(tap)
        XCTAssertNil(tap.view)
    }
}
