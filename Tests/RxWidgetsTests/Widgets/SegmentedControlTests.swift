import RxCore
import RxWidgets
import XCTest

final class SegmentedControlTests: XCTestCase {
    func testStartsWithNoSegmentSelected() {
        let control = SegmentedControl(items: ["a", "b"])
        XCTAssertEqual(control.selectedSegmentIndex, SegmentedControl.noSegment)
        XCTAssertEqual(control.numberOfSegments, 2)
        XCTAssertEqual(control.titleForSegment(at: 1), "b")
        XCTAssertNil(control.titleForSegment(at: 2))
    }

    func testAnIndexOutOfRangeInCodeSelectsNothing() {
        let control = SegmentedControl(items: ["a", "b"])
        control.selectedSegmentIndex = 1
        control.selectedSegmentIndex = 5
        XCTAssertEqual(control.selectedSegmentIndex, -1)
    }

    func testFromAUserOnlyMinusOneToCountMinusOneIsAccepted() throws {
        let control = SegmentedControl(items: ["a", "b"])
        XCTAssertEqual(try control.sendUserEvent(.valueChanged, value: .number(1)), .number(1))
        XCTAssertEqual(try control.sendUserEvent(.valueChanged, value: .number(-1)), .number(-1))
        for bad: WidgetValue in [.number(2), .number(-2), .number(0.5), .bool(true), .null] {
            XCTAssertThrowsError(try control.sendUserEvent(.valueChanged, value: bad), "\(bad)")
        }
    }

    func testEditingSegmentsKeepsTheSelectionOnItsSegment() {
        let control = SegmentedControl(items: ["a", "b", "c"])
        let tree = widgetTestTree(["seg": control])
        control.selectedSegmentIndex = 1
        control.insertSegment(withTitle: "z", at: 0, animated: false)
        XCTAssertEqual(control.segments, ["z", "a", "b", "c"])
        XCTAssertEqual(control.selectedSegmentIndex, 2)
        control.removeSegment(at: 0, animated: false)
        XCTAssertEqual(control.selectedSegmentIndex, 1)
        control.removeSegment(at: 1, animated: false)
        XCTAssertEqual(control.selectedSegmentIndex, -1)
        control.setTitle("A", forSegmentAt: 0)
        XCTAssertEqual(widgetTestChanges(tree), ["seg.segments = [\"A\", \"c\"]"], "the index ended where it started")
        control.removeAllSegments()
        XCTAssertEqual(control.numberOfSegments, 0)
    }

    func testRxBinders() {
        let control = SegmentedControl(items: ["a", "b"])
        Observable.just(1).bind(to: control.rx.selectedSegmentIndex).dispose()
        Observable.just("B").bind(to: control.rx.titleForSegment(at: 1)).dispose()
        XCTAssertEqual(control.selectedSegmentIndex, 1)
        XCTAssertEqual(control.segments, ["a", "B"])
    }
}
