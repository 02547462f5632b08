import Foundation
import RxCore
import RxWidgets
import XCTest

/// RxCocoa's `ControlEvent` rules, on widgets.
final class ControlEventTests: XCTestCase {
    func testSendsNoInitialValueThenOneElementPerEvent() {
        let button = Button()
        var taps = 0
        let subscription = button.rx.tap.subscribe(onNext: { taps += 1 })
        XCTAssertEqual(taps, 0)
        button.sendActions(for: .touchUpInside)
        button.sendActions(for: .touchDown) // another event
        button.sendActions(for: [.touchUpInside, .touchDown]) // once, not per bit
        XCTAssertEqual(taps, 2)
        subscription.dispose()
        button.sendActions(for: .touchUpInside)
        XCTAssertEqual(taps, 2, "disposing unregisters")
        XCTAssertEqual(button.allControlEvents, [])
    }

    func testCompletesWhenTheControlIsDeallocatedAndDoesNotKeepItAlive() {
        var button: Button? = Button()
        weak let weakButton = button
        var events: [String] = []
        _ = button!.rx.tap.subscribe(onNext: { events.append("tap") }, onCompleted: { events.append("completed") })
        button!.sendActions(for: .touchUpInside)
        button = nil
        XCTAssertNil(weakButton)
        XCTAssertEqual(events, ["tap", "completed"])
    }

    func testCustomControlEventFromAnExtension() {
        let field = TextField()
        var ends = 0
        _ = field.rx.controlEvent([.editingDidEnd, .editingDidEndOnExit]).subscribe(onNext: { ends += 1 })
        field.sendActions(for: .editingDidEnd)
        field.sendActions(for: .editingDidEndOnExit)
        field.sendActions(for: .editingChanged)
        XCTAssertEqual(ends, 2)
    }

    func testWrapsAnySequenceAndIsAnObservable() {
        let subject = PublishSubject<Int>()
        let event = ControlEvent(events: subject)
        var values: [Int] = []
        _ = event.asObservable().subscribe(onNext: { values.append($0) })
        _ = event.asControlEvent().subscribe(onNext: { values.append($0 * 10) })
        subject.onNext(1)
        XCTAssertEqual(values, [1, 10])
    }
}
