import Foundation
import RxCore
import RxTesting
import RxWidgets
import XCTest

// Seeds 1 and 2 (the `colors` scene), written as the RxCocoa seeds are: a custom
// `Binder<Int>` (`rx.segmentedValue`), a custom two-way `ControlProperty<Color?>`
// (`rx.color`) with getter and setter, and `bind(to: a, b)` to two observers.

final class ColorsViewController: ViewController {
    let bag = DisposeBag()

    let picker = SegmentedControl(items: ["Red", "Green", "Blue"])
    let valueLabel = Label()
    let whiteSlider = Slider()
    let canvas = View()
    let resetButton = Button()

    override func viewDidLoad() {
        super.viewDidLoad()
        picker.selectedSegmentIndex = 0
        whiteSlider.minimumValue = 0
        whiteSlider.maximumValue = 1
        whiteSlider.value = 0.5
        resetButton.setTitle("Reset", for: .normal)

        picker.rx.selectedSegmentIndex
            .bind(to: valueLabel.rx.segmentedValue)
            .disposed(by: bag)

        whiteSlider.rx.color
            .bind(to: canvas.rx.backgroundColor)
            .disposed(by: bag)

        resetButton.rx.tap
            .map { _ in Color(white: 0.5, alpha: 1.0) }
            .bind(to: whiteSlider.rx.color.asObserver(), canvas.rx.backgroundColor.asObserver())
            .disposed(by: bag)
    }

    /// The scene's widgets under their contract ids.
    func makeTree() -> WidgetTree {
        widgetTestTree([
            "picker": picker, "valueLabel": valueLabel, "whiteSlider": whiteSlider,
            "canvas": canvas, "resetButton": resetButton,
        ])
    }
}

extension Reactive where Base: Label {
    var segmentedValue: Binder<Int> {
        return Binder(self.base) { label, index in
            switch index {
            case 0:
                label.text = "Red"
                label.textColor = Color.red
            case 1:
                label.text = "Green"
                label.textColor = Color.green
            case 2:
                label.text = "Blue"
                label.textColor = .blue
            default:
                label.text = "Unknown"
                label.textColor = .black
            }
        }
    }
}

extension Reactive where Base: Slider {
    var color: ControlProperty<Color?> {
        return base.rx.controlProperty(editingEvents: .valueChanged, getter: { slider in
            Color(white: CGFloat(slider.value), alpha: 1.0)
        }, setter: { slider, color in
            var white = CGFloat(1)
            color?.getWhite(&white, alpha: nil)
            slider.value = Float(white)
        })
    }
}

final class ColorsSeedTests: XCTestCase {
    func testInitialStateIsRedAndMidGrey() {
        let controller = ColorsViewController()
        controller.loadViewIfNeeded()
        let tree = controller.makeTree()

        let snapshot = Dictionary(uniqueKeysWithValues: tree.snapshot().map { ($0.id, $0) })
        XCTAssertEqual(snapshot["picker"]?.kind, "segmentedControl")
        XCTAssertEqual(snapshot["picker"]?.properties["segments"], .strings(["Red", "Green", "Blue"]))
        XCTAssertEqual(snapshot["picker"]?.properties["selectedSegmentIndex"], .number(0))
        XCTAssertEqual(snapshot["valueLabel"]?.properties["text"], .string("Red"))
        XCTAssertEqual(snapshot["valueLabel"]?.properties["textColor"], .color(.red))
        XCTAssertEqual(snapshot["whiteSlider"]?.properties["value"], .number(0.5))
        XCTAssertEqual(snapshot["canvas"]?.properties["backgroundColor"], .color(Color(white: 0.5, alpha: 1)))
        XCTAssertEqual(controller.canvas.backgroundColor?.hexString, "#808080ff")
        XCTAssertEqual(snapshot["resetButton"]?.properties["title"], .string("Reset"))
        XCTAssertFalse(tree.hasPendingChanges)
    }

    func testPickingASegmentSetsTextAndColourThroughTheCustomBinder() throws {
        let controller = ColorsViewController()
        controller.loadViewIfNeeded()
        let tree = controller.makeTree()

        try controller.picker.sendUserEvent(.valueChanged, value: .number(2))
        XCTAssertEqual(controller.valueLabel.text, "Blue")
        XCTAssertEqual(controller.valueLabel.textColor, .blue)
        XCTAssertEqual(widgetTestChanges(tree), [
            "picker.selectedSegmentIndex = 2.0",
            "valueLabel.text = \"Blue\"",
            "valueLabel.textColor = #0000ffff",
        ])

        try controller.picker.sendUserEvent(.valueChanged, value: .number(1))
        XCTAssertEqual(widgetTestChanges(tree), [
            "picker.selectedSegmentIndex = 1.0",
            "valueLabel.text = \"Green\"",
            "valueLabel.textColor = #00ff00ff",
        ])

        // -1 (no segment) is allowed and shows "Unknown" in black.
        try controller.picker.sendUserEvent(.valueChanged, value: .number(-1))
        XCTAssertEqual(controller.valueLabel.text, "Unknown")
        XCTAssertEqual(controller.valueLabel.textColor, .black)
        XCTAssertEqual(widgetTestChanges(tree), [
            "picker.selectedSegmentIndex = -1.0",
            "valueLabel.text = \"Unknown\"",
            "valueLabel.textColor = #000000ff",
        ])
    }

    func testASegmentIndexOutOfRangeIsABadValueAndChangesNothing() {
        let controller = ColorsViewController()
        controller.loadViewIfNeeded()
        let tree = controller.makeTree()

        XCTAssertThrowsError(try controller.picker.sendUserEvent(.valueChanged, value: .number(3))) { error in
            XCTAssertEqual((error as? WidgetInputError)?.code, .badValue)
        }
        XCTAssertThrowsError(try controller.picker.sendUserEvent(.valueChanged, value: .string("1"))) { error in
            XCTAssertEqual((error as? WidgetInputError)?.code, .badValue)
        }
        XCTAssertEqual(controller.valueLabel.text, "Red")
        XCTAssertEqual(widgetTestChanges(tree), [])
    }

    func testMovingTheSliderColoursTheCanvasThroughTheCustomControlProperty() throws {
        let controller = ColorsViewController()
        controller.loadViewIfNeeded()
        let tree = controller.makeTree()

        let applied = try controller.whiteSlider.sendUserEvent(.valueChanged, value: .number(0.25))
        XCTAssertEqual(applied, .number(0.25))
        XCTAssertEqual(controller.canvas.backgroundColor, Color(white: 0.25, alpha: 1))
        XCTAssertEqual(widgetTestChanges(tree), [
            "whiteSlider.value = 0.25",
            "canvas.backgroundColor = #404040ff",
        ])

        // Each channel is round(v * 255): 0.3 gives 76.5 (as a Float, a hair above) → 77.
        try controller.whiteSlider.sendUserEvent(.valueChanged, value: .number(0.3))
        XCTAssertEqual(controller.canvas.backgroundColor?.hexString, "#4d4d4dff")
        XCTAssertEqual(widgetTestChanges(tree), [
            "whiteSlider.value = 0.3",
            "canvas.backgroundColor = #4d4d4dff",
        ])
    }

    func testTheSliderClampsUserValuesAsUIKitDoes() throws {
        let controller = ColorsViewController()
        controller.loadViewIfNeeded()
        let tree = controller.makeTree()

        let applied = try controller.whiteSlider.sendUserEvent(.valueChanged, value: .number(7))
        XCTAssertEqual(applied, .number(1), "clamped: the server sends the value back")
        XCTAssertEqual(controller.canvas.backgroundColor, .white)
        XCTAssertEqual(widgetTestChanges(tree), [
            "whiteSlider.value = 1.0",
            "canvas.backgroundColor = #ffffffff",
        ])
    }

    func testResetBindsOneColourToTheSliderAndTheCanvasWithoutAControlEvent() throws {
        let controller = ColorsViewController()
        controller.loadViewIfNeeded()
        let tree = controller.makeTree()
        try controller.whiteSlider.sendUserEvent(.valueChanged, value: .number(0.1))
        _ = tree.takeChanges()

        // Count what the slider's property reports: the reset is programmatic, so none.
        var reported: [Float] = []
        let subscription = controller.whiteSlider.rx.value.changed.subscribe(onNext: { reported.append($0) })
        defer { subscription.dispose() }

        try controller.resetButton.sendUserEvent(.touchUpInside)
        XCTAssertEqual(controller.whiteSlider.value, 0.5)
        XCTAssertEqual(controller.canvas.backgroundColor, Color(white: 0.5, alpha: 1))
        XCTAssertEqual(reported, [])
        XCTAssertEqual(widgetTestChanges(tree), [
            "whiteSlider.value = 0.5",
            "canvas.backgroundColor = #808080ff",
        ])
    }

    func testTheSceneLetsGoOfItsWidgetsAndEndsItsBindings() {
        var controller: ColorsViewController? = ColorsViewController()
        controller?.loadViewIfNeeded()
        weak let weakController = controller
        weak let weakSlider = controller?.whiteSlider
        var ended = false
        _ = controller?.rx.deallocated.subscribe(onCompleted: { ended = true })

        controller = nil
        XCTAssertNil(weakController)
        XCTAssertNil(weakSlider, "nothing global keeps a widget alive")
        XCTAssertTrue(ended)
    }
}
