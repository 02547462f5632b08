import Foundation
import RxCore
import RxTesting
import RxWidgets
import XCTest

/// RxCocoa's `ControlProperty` rules, on widgets.
final class ControlPropertyTests: XCTestCase {
    func testSubscribingReplaysTheCurrentValueSynchronously() {
        let slider = Slider()
        slider.value = 0.75
        var values: [Float] = []
        let subscription = slider.rx.value.subscribe(onNext: { values.append($0) })
        defer { subscription.dispose() }
        XCTAssertEqual(values, [0.75])
    }

    func testUserChangesAreSentAndProgrammaticChangesAreNot() throws {
        let slider = Slider()
        let scheduler = TestScheduler(initialClock: 0)
        let observer = scheduler.createObserver(Float.self)
        let subscription = slider.rx.value.subscribe(observer)
        defer { subscription.dispose() }

        slider.value = 0.2 // in code: no event
        try slider.sendUserEvent(.valueChanged, value: .number(0.4))
        slider.setValue(0.6, animated: true)
        slider.sendActions(for: .valueChanged) // an event: reads the current value
        XCTAssertEqual(observer.events, [.next(0, 0), .next(0, 0.4), .next(0, 0.6)])
    }

    func testBindingToThePropertyWritesThroughTheSink() {
        let slider = Slider()
        let values = PublishSubject<Float>()
        let subscription = values.bind(to: slider.rx.value)
        values.onNext(0.3)
        XCTAssertEqual(slider.value, 0.3)
        values.onCompleted() // passed to the sink, which ignores it
        subscription.dispose()
        XCTAssertEqual(slider.value, 0.3)
    }

    func testAnErrorBoundToThePropertyIsReportedNotFatal() {
        let field = TextField()
        let errors = widgetTestBindingErrors {
            field.rx.text.on(.next("a"))
            field.rx.text.on(.error(WidgetTestError("bad input")))
            field.rx.text.on(.next("b"))
        }
        XCTAssertEqual(errors, ["bad input"])
        XCTAssertEqual(field.text, "b")
    }

    func testChangedSkipsTheCurrentValue() throws {
        let toggle = Switch()
        var changes: [Bool] = []
        let subscription = toggle.rx.isOn.changed.subscribe(onNext: { changes.append($0) })
        defer { subscription.dispose() }
        XCTAssertEqual(changes, [])
        try toggle.sendUserEvent(.valueChanged, value: .bool(true))
        XCTAssertEqual(changes, [true])
    }

    func testOrEmptyReadsNilAsEmptyAndWritesThrough() throws {
        let field = TextField()
        var texts: [String] = []
        let property = field.rx.text.orEmpty
        let subscription = property.subscribe(onNext: { texts.append($0) })
        defer { subscription.dispose() }
        try field.sendUserEvent(.editingChanged, value: .null)
        try field.sendUserEvent(.editingChanged, value: .string("x"))
        XCTAssertEqual(texts, ["", "", "x"])

        property.onNext("written")
        XCTAssertEqual(field.text, "written")
    }

    func testOrEmptyMapsNilFromACustomProperty() {
        let label = Label()
        let stored = WidgetTestBox<String?>(nil)
        let property = ControlProperty<String?>(values: Observable.just(nil), valueSink: Binder(label) { label, value in
            stored.value = value
            label.text = value
        })
        var texts: [String] = []
        _ = property.orEmpty.subscribe(onNext: { texts.append($0) })
        XCTAssertEqual(texts, [""])
        property.orEmpty.onNext("set")
        XCTAssertEqual(stored.value, "set")
    }

    func testCompletesWhenTheControlIsDeallocatedAndDoesNotKeepItAlive() {
        var slider: Slider? = Slider()
        weak let weakSlider = slider
        let property = slider!.rx.value
        var events: [String] = []
        let subscription = property.subscribe(
            onNext: { events.append("next \($0)") },
            onCompleted: { events.append("completed") },
            onDisposed: { events.append("disposed") }
        )
        defer { subscription.dispose() }

        slider = nil
        XCTAssertNil(weakSlider, "a subscription must not keep the control alive")
        XCTAssertEqual(events, ["next 0.0", "completed", "disposed"])

        // Subscribing after the control is gone completes at once.
        var late: [String] = []
        _ = property.subscribe(onNext: { late.append("next \($0)") }, onCompleted: { late.append("completed") })
        XCTAssertEqual(late, ["completed"])
    }

    /// The control completes its subscribers itself when it goes (no `deallocated`
    /// subject): in subscription order, through operators, once, and not one that was
    /// disposed before.
    func testATextFieldsSubscribersCompleteWhenItIsDeallocatedAndGetNothingAfter() throws {
        var field: TextField? = TextField()
        field!.text = "a"
        let text = field!.rx.text
        var events: [String] = []
        let first = text.map { $0?.uppercased() }.subscribe(
            onNext: { events.append("first \($0 ?? "nil")") },
            onCompleted: { events.append("first completed") },
            onDisposed: { events.append("first disposed") }
        )
        let disposedEarly = text.subscribe(onNext: { _ in events.append("early next") },
                                           onCompleted: { events.append("early completed") })
        let second = field!.rx.controlEvent(.editingChanged).subscribe(
            onNext: { events.append("second next") },
            onCompleted: { events.append("second completed") }
        )
        defer { first.dispose(); second.dispose() }
        disposedEarly.dispose()
        try field!.sendUserEvent(.editingChanged, value: .string("b"))
        XCTAssertEqual(events, ["first A", "early next", "first B", "second next"])
        events = []
        weak let weakField = field
        field = nil
        XCTAssertNil(weakField)
        XCTAssertEqual(events, ["first completed", "first disposed", "second completed"])
        first.dispose()
        second.dispose()
        XCTAssertEqual(events.count, 3, "nothing after completed")
    }

    func testBindingAfterTheControlIsGoneIsSkipped() {
        var field: TextField? = TextField()
        let property = field!.rx.text
        field = nil
        property.onNext("nobody") // no crash, nothing to write to
    }

    func testSubscriptionsFromAnotherThreadHappenOnTheMainThread() {
        let slider = Slider()
        slider.value = 0.5
        let property = slider.rx.value
        let received = expectation(description: "current value")
        let subscription = WidgetTestBox<Disposable?>(nil)
        let onMain = WidgetTestBox(false)
        let unchecked = UncheckedWidgetTestValue(property)
        DispatchQueue.global().async {
            subscription.value = unchecked.value.subscribe(onNext: { _ in
                onMain.value = Thread.isMainThread
                received.fulfill()
            })
        }
        wait(for: [received], timeout: 5)
        XCTAssertTrue(onMain.value, "the getter ran on the main thread")
        subscription.value?.dispose()
    }

    func testDefaultEditingEventsAreAllEditingEventsAndValueChanged() {
        let control = Control()
        var count = 0
        let property = control.rx.controlPropertyWithDefaultEvents(getter: { _ in 1 }, setter: { _, _ in })
        let subscription = property.skip(1).subscribe(onNext: { _ in count += 1 })
        defer { subscription.dispose() }
        control.sendActions(for: .editingDidBegin)
        control.sendActions(for: .editingChanged)
        control.sendActions(for: .editingDidEnd)
        control.sendActions(for: .editingDidEndOnExit)
        control.sendActions(for: .valueChanged)
        control.sendActions(for: .touchUpInside)
        control.sendActions(for: .primaryActionTriggered)
        XCTAssertEqual(count, 5)
    }
}

/// Hands a non-Sendable value to another thread in a test that keeps to the Rx grammar.
struct UncheckedWidgetTestValue<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}

/// `asDriver()` / `asSignal()` on control properties and events.
final class ControlTraitsTests: XCTestCase {
    func testControlPropertyAsDriverReplaysAndFollowsTheUser() throws {
        let field = TextField()
        field.text = "start"
        let label = Label()
        let other = Label()
        let driver = field.rx.text.asDriver()
        let bag = DisposeBag()
        driver.drive(label.rx.text).disposed(by: bag)
        try field.sendUserEvent(.editingChanged, value: .string("typed"))
        driver.drive(other.rx.text).disposed(by: bag) // shared: gets the latest at once
        XCTAssertEqual(label.text, "typed")
        XCTAssertEqual(other.text, "typed")
    }

    func testControlEventAsSignalAndDriver() {
        let button = Button()
        var signalTaps = 0
        var driverTaps = 0
        let bag = DisposeBag()
        button.rx.tap.asSignal().emit(onNext: { signalTaps += 1 }).disposed(by: bag)
        button.rx.tap.asDriver().drive(onNext: { driverTaps += 1 }).disposed(by: bag)
        button.sendActions(for: .touchUpInside)
        XCTAssertEqual([signalTaps, driverTaps], [1, 1])
    }

    func testAnErrorIsReportedAndTheDriverCompletes() {
        let subject = PublishSubject<Int>()
        let property = ControlProperty(values: subject, valueSink: AnyObserver<Int> { _ in })
        var events: [String] = []
        let errors = widgetTestBindingErrors {
            _ = property.asDriver().drive(onNext: { events.append("\($0)") }, onCompleted: { events.append("completed") })
            subject.onNext(1)
            subject.onError(WidgetTestError())
        }
        XCTAssertEqual(events, ["1", "completed"])
        XCTAssertEqual(errors, ["boom"])
    }
}
