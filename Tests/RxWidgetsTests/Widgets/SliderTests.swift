import RxCore
import RxWidgets
import XCTest

final class SliderTests: XCTestCase {
    func testUIKitDefaultsAndKind() {
        let slider = Slider()
        XCTAssertEqual(slider.value, 0)
        XCTAssertEqual(slider.minimumValue, 0)
        XCTAssertEqual(slider.maximumValue, 1)
        XCTAssertTrue(slider.isEnabled)
        XCTAssertEqual(slider.kind, "slider")
    }

    func testValueIsClampedToTheRange() {
        let slider = Slider()
        slider.value = 2
        XCTAssertEqual(slider.value, 1)
        slider.value = -1
        XCTAssertEqual(slider.value, 0)
        slider.value = .nan
        XCTAssertEqual(slider.value, 0, "NaN ignored")
    }

    func testMovingABoundPastTheValueMovesTheValueAndTheOtherBound() {
        let slider = Slider()
        let tree = widgetTestTree(["s": slider])
        slider.value = 0.5
        slider.minimumValue = 2
        XCTAssertEqual(slider.maximumValue, 2)
        XCTAssertEqual(slider.value, 2)
        slider.maximumValue = -1
        XCTAssertEqual(slider.minimumValue, -1)
        XCTAssertEqual(slider.value, -1)
        XCTAssertEqual(widgetTestChanges(tree), ["s.value = -1.0", "s.minimumValue = -1.0", "s.maximumValue = -1.0"])
    }

    func testRxValueIsTwoWay() throws {
        let slider = Slider()
        var values: [Float] = []
        _ = slider.rx.value.subscribe(onNext: { values.append($0) })
        Observable.just(Float(0.25)).bind(to: slider.rx.value).dispose()
        try slider.sendUserEvent(.valueChanged, value: .number(0.75))
        XCTAssertEqual(values, [0, 0.75])
        XCTAssertEqual(slider.value, 0.75)
    }
}
