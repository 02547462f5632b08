import Foundation
import RxCore
import RxWidgets
import XCTest

private final class Receiver {
    var log: [String] = []

    func sliderMoved(_ sender: Slider) {
        log.append("moved to \(sender.value)")
    }

    func tapped() {
        log.append("tapped")
    }

    func anyControl(_ sender: Control) {
        log.append("control \(sender.kind)")
    }
}

/// `Control`: target/action, `sendActions(for:)`, `isEnabled`, user events.
final class ControlTests: XCTestCase {
    func testTargetActionWithATypedSender() {
        let slider = Slider()
        let receiver = Receiver()
        slider.addTarget(receiver, action: Receiver.sliderMoved, for: .valueChanged)
        slider.addTarget(receiver, action: Receiver.anyControl, for: [.valueChanged, .touchDown])
        slider.value = 0.5 // in code: no action
        slider.sendActions(for: .valueChanged)
        slider.sendActions(for: .touchDown)
        XCTAssertEqual(receiver.log, ["moved to 0.5", "control slider", "control slider"])
        XCTAssertEqual(slider.allControlEvents, [.valueChanged, .touchDown])
    }

    func testTargetsAreHeldWeaklyAndCanBeRemoved() {
        let button = Button()
        var receiver: Receiver? = Receiver()
        weak let weakReceiver = receiver
        button.addTarget(receiver!, action: Receiver.tapped, for: [.touchUpInside, .touchDown])
        button.sendActions(for: .touchUpInside)
        XCTAssertEqual(receiver?.log, ["tapped"])

        button.removeTarget(receiver, for: .touchDown)
        XCTAssertEqual(button.allControlEvents, .touchUpInside)
        button.removeTarget(nil, for: .touchUpInside)
        XCTAssertEqual(button.allControlEvents, [])
        button.sendActions(for: .touchUpInside)
        XCTAssertEqual(receiver?.log, ["tapped"])

        button.addTarget(receiver!, action: Receiver.tapped, for: .touchUpInside)
        receiver = nil
        XCTAssertNil(weakReceiver)
        button.sendActions(for: .touchUpInside) // a gone target is dropped
        XCTAssertEqual(button.allControlEvents, [])
    }

    func testTargetsAreNotCalledWhenTheControlIsDeinitialised() {
        var button: Button? = Button()
        let receiver = Receiver()
        button!.addTarget(receiver, action: Receiver.tapped, for: .touchUpInside)
        button!.addTarget(receiver, action: Receiver.anyControl, for: .touchUpInside)
        var completed = false
        _ = button!.rx.tap.subscribe(onCompleted: { completed = true })
        button = nil
        XCTAssertTrue(completed, "rx subscriptions complete")
        XCTAssertEqual(receiver.log, [], "actions are not called")
    }

    func testRemovingTargetsLeavesRxSubscriptions() {
        let button = Button()
        var taps = 0
        let subscription = button.rx.tap.subscribe(onNext: { taps += 1 })
        defer { subscription.dispose() }
        button.removeTarget(nil)
        button.sendActions(for: .touchUpInside)
        XCTAssertEqual(taps, 1)
    }

    func testSendActionsIsSynchronousInRegistrationOrderEvenWhenDisabled() {
        let button = Button()
        var log: [String] = []
        _ = button.rx.tap.subscribe(onNext: { log.append("first") })
        _ = button.rx.controlEvent(.allTouchEvents).subscribe(onNext: { log.append("second") })
        button.isEnabled = false
        button.sendActions(for: .touchUpInside)
        log.append("returned")
        XCTAssertEqual(log, ["first", "second", "returned"])
    }

    func testHandlersMayUnsubscribeOthersWhileEventsAreSent() {
        let button = Button()
        var log: [String] = []
        let second = SerialDisposable()
        _ = button.rx.tap.subscribe(onNext: {
            log.append("first")
            second.dispose()
        })
        second.disposable = button.rx.tap.subscribe(onNext: { log.append("second") })
        button.sendActions(for: .touchUpInside)
        XCTAssertEqual(log, ["first"])
    }

    func testEventNames() {
        XCTAssertEqual(Control.Event(name: "touchUpInside"), .touchUpInside)
        XCTAssertEqual(Control.Event(name: "editingDidEndOnExit"), .editingDidEndOnExit)
        XCTAssertNil(Control.Event(name: "tap"))
        XCTAssertEqual(Control.Event.allEditingEvents.names, ["editingDidBegin", "editingChanged", "editingDidEnd", "editingDidEndOnExit"])
        XCTAssertEqual(Control.Event.valueChanged.rawValue, 4096, "UIKit's bit values")
        XCTAssertEqual(Control.Event.allTouchEvents.rawValue, 0x0FFF)
    }

    func testUserEventsAreCheckedThenApplyTheValueThenSendTheEvent() throws {
        let slider = Slider()
        var log: [String] = []
        _ = slider.rx.controlEvent(.valueChanged).subscribe(onNext: { log.append("valueChanged at \(slider.value)") })

        XCTAssertEqual(try slider.sendUserEvent(.valueChanged, value: .number(0.5)), .number(0.5))
        XCTAssertEqual(try slider.sendUserEvent(.valueChanged), nil, "no value: the event alone")
        XCTAssertEqual(log, ["valueChanged at 0.5", "valueChanged at 0.5"])

        func code(_ body: () throws -> Void) -> WidgetInputError.Code? {
            do {
                try body()
                return nil
            } catch {
                return (error as? WidgetInputError)?.code
            }
        }
        XCTAssertEqual(code { try slider.sendUserEvent(.editingChanged) }, .unknownEvent)
        XCTAssertEqual(code { try slider.sendUserEvent([.valueChanged, .touchDown]) }, .unknownEvent, "one event at a time")
        XCTAssertEqual(code { try slider.sendUserEvent(.valueChanged, value: .string("0.5")) }, .badValue)
        XCTAssertEqual(code { try slider.sendUserEvent(.valueChanged, value: .number(.nan)) }, .badValue)
        XCTAssertEqual(code { try Button().sendUserEvent(.touchUpInside, value: .number(1)) }, .badValue, "a button takes no value")
        slider.isEnabled = false
        XCTAssertEqual(code { try slider.sendUserEvent(.valueChanged, value: .number(0.9)) }, .disabled)
        XCTAssertEqual(slider.value, 0.5, "nothing applied when rejected")
        XCTAssertEqual(log.count, 2, "nothing sent when rejected")
    }

    func testAButtonTapIsAlsoItsPrimaryAction() throws {
        let button = Button()
        var log: [String] = []
        _ = button.rx.controlEvent(.primaryActionTriggered).subscribe(onNext: { log.append("primary") })
        _ = button.rx.tap.subscribe(onNext: { log.append("tap") })
        try button.sendUserEvent(.touchUpInside)
        try button.sendUserEvent(.touchDown)
        XCTAssertEqual(log, ["primary", "tap"])
    }

    func testReturnInATextFieldIsItsPrimaryAction() throws {
        let field = TextField()
        var log: [String] = []
        _ = field.rx.controlEvent(.primaryActionTriggered).subscribe(onNext: { log.append("primary") })
        try field.sendUserEvent(.editingDidEndOnExit, value: .string("done"))
        try field.sendUserEvent(.editingDidEnd)
        XCTAssertEqual(log, ["primary"])
        XCTAssertEqual(field.text, "done")
    }

    func testIsEnabledBinderAndRecord() {
        let button = Button()
        let tree = widgetTestTree(["go": button])
        Observable.of(false, false, true, false).bind(to: button.rx.isEnabled).dispose()
        XCTAssertFalse(button.isEnabled)
        XCTAssertEqual(button.state, .disabled)
        XCTAssertEqual(widgetTestChanges(tree), ["go.isEnabled = false"])
    }
}

final class ControlEventNameTests: XCTestCase {
    /// Every single event's name reads back as that event, and nothing else does.
    func testEveryEventNameMapsBackToItsEvent() {
        let names = Control.Event.allEvents.names
        XCTAssertEqual(names.count, 15)
        for name in names {
            XCTAssertEqual(Control.Event(name: name)?.names, [name], name)
        }
        XCTAssertEqual(Control.Event(name: "editingChanged"), .editingChanged)
        XCTAssertEqual(Control.Event(name: "touchUpInside"), .touchUpInside)
        for unknown in ["", "tap", "EditingChanged", "editingchanged", "allEvents", "touchUpInside "] {
            XCTAssertNil(Control.Event(name: unknown), unknown)
        }
    }
}
