import Foundation
import RxCore
import RxWidgets
import XCTest

/// UIKit's defaults and rules for the smaller widgets, and their `rx` members.
final class WidgetDefaultsTests: XCTestCase {
    func testView() {
        let view = View()
        XCTAssertNil(view.backgroundColor)
        XCTAssertFalse(view.isHidden)
        XCTAssertEqual(view.alpha, 1)
        view.alpha = 3
        XCTAssertEqual(view.alpha, 1)
        view.alpha = -3
        XCTAssertEqual(view.alpha, 0)
        XCTAssertEqual(View(id: "v").id, "v")
    }

    func testLabel() {
        let label = Label()
        XCTAssertNil(label.text)
        XCTAssertEqual(label.textColor, .black)
        label.textColor = .red
        label.textColor = nil
        XCTAssertEqual(label.textColor, .black, "nil restores the default, as in UIKit")
    }

    func testButtonTitlesPerState() {
        let button = Button(type: .system)
        let tree = widgetTestTree(["b": button])
        XCTAssertTrue(button.isEnabled, "buttons start enabled")
        XCTAssertNil(button.currentTitle)
        button.setTitle("Go", for: .normal)
        button.setTitle("Wait", for: .disabled)
        XCTAssertEqual(button.currentTitle, "Go")
        button.isEnabled = false
        XCTAssertEqual(button.currentTitle, "Wait")
        XCTAssertEqual(button.title(for: .selected), "Go", "falls back to normal")
        XCTAssertEqual(widgetTestChanges(tree), ["b.title = \"Wait\"", "b.isEnabled = false"])

        Observable.just("Stop").bind(to: button.rx.title(for: .disabled)).dispose()
        Observable.just("Start").bind(to: button.rx.title()).dispose()
        XCTAssertEqual(button.currentTitle, "Stop")
        button.isEnabled = true
        XCTAssertEqual(button.currentTitle, "Start")
    }

    func testTextField() throws {
        let field = TextField()
        XCTAssertEqual(field.text, "", "reads empty, not nil, as UIKit's")
        field.text = nil
        XCTAssertEqual(field.text, "")
        XCTAssertNil(field.placeholder)
        XCTAssertFalse(field.isSecureTextEntry)
        XCTAssertEqual(field.valueProperty, "text")
        XCTAssertEqual(try field.applyUserInput(property: "text", value: .null), .string(""))
    }

    func testTextFieldRxTextWritesOnlyWhenDifferent() throws {
        let field = TextField()
        let tree = widgetTestTree(["f": field])
        field.text = "same"
        _ = tree.takeChanges()
        var onChangesPending = 0
        tree.onChangesPending = { onChangesPending += 1 }
        Observable.just("same").bind(to: field.rx.text).dispose()
        XCTAssertEqual(onChangesPending, 0)
    }

    func testSwitch() throws {
        let toggle = Switch()
        XCTAssertFalse(toggle.isOn)
        var values: [Bool] = []
        _ = toggle.rx.value.subscribe(onNext: { values.append($0) })
        toggle.setOn(true, animated: true)
        try toggle.sendUserEvent(.valueChanged, value: .bool(false))
        XCTAssertEqual(values, [false, false])
        XCTAssertThrowsError(try toggle.sendUserEvent(.valueChanged, value: .number(1)))
        Observable.just(true).bind(to: toggle.rx.isOn).dispose()
        XCTAssertTrue(toggle.isOn)
    }

    func testStepperClampsAndSteps() throws {
        let stepper = Stepper()
        XCTAssertEqual([stepper.value, stepper.minimumValue, stepper.maximumValue, stepper.stepValue], [0, 0, 100, 1])
        stepper.value = 150
        XCTAssertEqual(stepper.value, 100)
        stepper.maximumValue = 10
        XCTAssertEqual(stepper.value, 10)
        stepper.stepValue = -1
        XCTAssertEqual(stepper.stepValue, 1, "must be positive")
        XCTAssertEqual(try stepper.sendUserEvent(.valueChanged, value: .number(-5)), .number(0))
        var values: [Double] = []
        _ = stepper.rx.value.subscribe(onNext: { values.append($0) })
        try stepper.sendUserEvent(.valueChanged, value: .number(3))
        XCTAssertEqual(values, [0, 3])
    }

    func testDatePicker() throws {
        let picker = DatePicker()
        XCTAssertEqual(picker.date.timeIntervalSinceNow, 0, accuracy: 60, "now by default")
        let tree = widgetTestTree(["d": picker])
        _ = try picker.sendUserEvent(.valueChanged, value: .string("2024-05-01T09:30:00Z"))
        XCTAssertEqual(picker.date, Date(timeIntervalSince1970: 1_714_555_800))
        _ = try picker.sendUserEvent(.valueChanged, value: .string("2024-05-01T09:30:00.500+02:00"))
        XCTAssertEqual(picker.date, Date(timeIntervalSince1970: 1_714_548_600.5))
        XCTAssertThrowsError(try picker.sendUserEvent(.valueChanged, value: .string("yesterday")))
        XCTAssertThrowsError(try picker.sendUserEvent(.valueChanged, value: .number(0)))

        picker.minimumDate = Date(timeIntervalSince1970: 1_800_000_000)
        XCTAssertEqual(picker.date, Date(timeIntervalSince1970: 1_800_000_000), "clamped to the new minimum")
        XCTAssertEqual(tree.takeChanges().map(\.property), ["date", "minimumDate"])

        var dates: [Date] = []
        _ = picker.rx.date.subscribe(onNext: { dates.append($0) })
        try picker.sendUserEvent(.valueChanged, value: .date(Date(timeIntervalSince1970: 1_900_000_000)))
        XCTAssertEqual(dates.map(\.timeIntervalSince1970), [1_800_000_000, 1_900_000_000])
    }

    func testProgressView() {
        let progress = ProgressView()
        XCTAssertEqual(progress.progress, 0)
        Observable.just(Float(1.5)).bind(to: progress.rx.progress).dispose()
        XCTAssertEqual(progress.progress, 1)
        progress.setProgress(0.5, animated: true)
        XCTAssertEqual(progress.snapshot()["progress"], .number(0.5))
    }

    func testActivityIndicatorHidesWhenStopped() {
        let spinner = ActivityIndicator()
        XCTAssertFalse(spinner.isAnimating)
        XCTAssertTrue(spinner.isHidden)
        let tree = widgetTestTree(["spinner": spinner])
        Observable.just(true).bind(to: spinner.rx.isAnimating).dispose()
        XCTAssertTrue(spinner.isAnimating)
        XCTAssertEqual(widgetTestChanges(tree), ["spinner.isAnimating = true", "spinner.isHidden = false"])
        spinner.hidesWhenStopped = false
        spinner.stopAnimating()
        XCTAssertFalse(spinner.isHidden)
    }

    func testImageView() {
        let imageView = ImageView()
        XCTAssertNil(imageView.image)
        let tree = widgetTestTree(["logo": imageView])
        Observable.just(Image(named: "logo.png")).bind(to: imageView.rx.image).dispose()
        XCTAssertEqual(widgetTestChanges(tree), ["logo.image = \"images/logo.png\""])
        imageView.image = Image(url: URL(string: "https://example.com/a.png")!)
        XCTAssertEqual(imageView.snapshot()["image"], .string("https://example.com/a.png"))
        XCTAssertNil(Image(named: ""))
    }

    func testViewControllerLoadsItsViewOnce() {
        final class Screen: ViewController {
            var loads = 0
            override func viewDidLoad() {
                super.viewDidLoad()
                loads += 1
            }
        }
        let screen = Screen()
        XCTAssertFalse(screen.isViewLoaded)
        _ = screen.view
        _ = screen.view
        XCTAssertEqual(screen.loads, 1)
        XCTAssertTrue(screen.isViewLoaded)
    }

    func testKinds() {
        let kinds = [View(), Label(), Button(), TextField(), Slider(), Switch(), SegmentedControl(), Stepper(),
                     DatePicker(), ProgressView(), ActivityIndicator(), ImageView(), ListView(), Control()].map(\.kind)
        XCTAssertEqual(kinds, ["view", "label", "button", "textField", "slider", "switch", "segmentedControl", "stepper",
                               "datePicker", "progressView", "activityIndicator", "imageView", "listView", "control"])
    }
}
