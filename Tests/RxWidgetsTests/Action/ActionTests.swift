import Foundation
import RxCore
import RxTesting
import RxWidgets
import XCTest

/// RxSwiftCommunity/Action's behaviour.
final class ActionTests: XCTestCase {
    func testEnabledStartsFalseAndBecomesTrueSynchronouslyWithJustTrue() {
        let scheduler = TestScheduler(initialClock: 0)
        let never = Action<Int, Int>(enabledIf: Observable.never()) { Observable.just($0) }
        let enabled = scheduler.createObserver(Bool.self)
        _ = never.enabled.subscribe(enabled)
        XCTAssertEqual(enabled.events, [.next(0, false)], "starts false")

        let action = Action<Int, Int> { Observable.just($0) }
        let alwaysEnabled = scheduler.createObserver(Bool.self)
        _ = action.enabled.subscribe(alwaysEnabled)
        XCTAssertEqual(alwaysEnabled.events, [.next(0, true)], "true by the time init returns")
    }

    func testEnabledFollowsEnabledIf() {
        let condition = BehaviorSubject(value: false)
        let action = Action<Void, Void>(enabledIf: condition) { Observable.just(()) }
        var values: [Bool] = []
        _ = action.enabled.subscribe(onNext: { values.append($0) })
        condition.onNext(true)
        condition.onNext(false)
        XCTAssertEqual(values, [false, true, false])
    }

    func testInputsForwardOnlyNext() {
        var runs: [Int] = []
        let action = Action<Int, Int> { input in
            runs.append(input)
            return Observable.just(input)
        }
        Observable.of(1, 2).bind(to: action.inputs).dispose() // completes: the action goes on
        action.inputs.onError(WidgetTestError())
        action.inputs.onNext(3)
        XCTAssertEqual(runs, [1, 2, 3])
    }

    func testElementsAndExecutingAcrossExecutions() {
        let scheduler = TestScheduler(initialClock: 0)
        let action = Action<Int, String> { input in
            scheduler.createColdObservable([.next(10, "\(input)a"), .next(20, "\(input)b"), .completed(30)]).asObservable()
        }
        let elements = scheduler.createObserver(String.self)
        let executing = scheduler.createObserver(Bool.self)
        _ = action.elements.subscribe(elements)
        _ = action.executing.subscribe(executing)
        scheduler.scheduleAt(100) { action.inputs.onNext(1) }
        scheduler.scheduleAt(200) { action.inputs.onNext(2) }
        scheduler.start()
        XCTAssertEqual(elements.events, [.next(110, "1a"), .next(120, "1b"), .next(210, "2a"), .next(220, "2b")])
        XCTAssertEqual(executing.events, [.next(0, false), .next(100, true), .next(130, false), .next(200, true), .next(230, false)])
    }

    func testAnInputWhileExecutingIsNotEnabledAndRunsNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        var runs = 0
        let action = Action<Void, Int> {
            runs += 1
            return scheduler.createColdObservable([.next(50, 1), .completed(50)]).asObservable()
        }
        let errors = scheduler.createObserver(String.self)
        let enabled = scheduler.createObserver(Bool.self)
        _ = action.errors.map(widgetTestDescribe).subscribe(errors)
        _ = action.enabled.subscribe(enabled)
        scheduler.scheduleAt(100) { action.inputs.onNext(()) }
        scheduler.scheduleAt(120) { action.inputs.onNext(()) }
        scheduler.scheduleAt(200) { action.inputs.onNext(()) }
        scheduler.start()
        XCTAssertEqual(runs, 2)
        XCTAssertEqual(errors.events, [.next(120, "notEnabled")])
        XCTAssertEqual(enabled.events, [.next(0, true), .next(100, false), .next(150, true), .next(200, false), .next(250, true)])
    }

    func testADisabledInputEmitsNotEnabled() {
        let action = Action<Int, Int>(enabledIf: Observable.just(false)) { _ in
            XCTFail("must not run")
            return Observable.empty()
        }
        var errors: [String] = []
        _ = action.errors.subscribe(onNext: { errors.append(widgetTestDescribe($0)) })
        action.inputs.onNext(1)
        XCTAssertEqual(errors, ["notEnabled"])
    }

    func testAWorkErrorIsAnUnderlyingErrorAndEndsTheExecution() {
        let action = Action<Int, Int> { input in
            input == 0 ? Observable.error(WidgetTestError("zero")) : Observable.just(input)
        }
        var errors: [String] = []
        var elements: [Int] = []
        var executing: [Bool] = []
        var underlying: [String] = []
        _ = action.errors.subscribe(onNext: { errors.append(widgetTestDescribe($0)) })
        _ = action.underlyingError.subscribe(onNext: { underlying.append("\($0)") })
        _ = action.elements.subscribe(onNext: { elements.append($0) })
        _ = action.executing.subscribe(onNext: { executing.append($0) })
        action.inputs.onNext(0)
        action.inputs.onNext(5)
        XCTAssertEqual(errors, ["underlyingError(zero)"])
        XCTAssertEqual(underlying, ["zero"])
        XCTAssertEqual(elements, [5], "errors are not forwarded to elements")
        XCTAssertEqual(executing, [false, true, false, true, false])
    }

    func testTheWorkIsSharedAcrossSubscribers() {
        var subscriptions = 0
        let action = Action<Void, Int> {
            Observable.deferred {
                subscriptions += 1
                return Observable.just(1)
            }
        }
        _ = action.elements.subscribe()
        _ = action.executionObservables.subscribe()
        action.execute()
        XCTAssertEqual(subscriptions, 1)
    }

    func testExecuteReturnsThatExecutionsElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let action = Action<Int, Int> { input in
            scheduler.createColdObservable([.next(10, input * 10), .completed(20)]).asObservable()
        }
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(100) { _ = action.execute(1).subscribe(first) }
        scheduler.scheduleAt(200) { _ = action.execute(2).subscribe(second) }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(110, 10), .completed(120)])
        XCTAssertEqual(second.events, [.next(210, 20), .completed(220)])
    }

    func testExecuteFailsWithNotEnabledWhenDisabledOrExecuting() {
        let scheduler = TestScheduler(initialClock: 0)
        let action = Action<Void, Int> {
            scheduler.createColdObservable([.next(10, 1), .completed(20)]).asObservable()
        }
        var results: [String] = []
        func record(_ label: String) -> (Event<Int>) -> Void {
            { event in
                if case .error(let error) = event { results.append("\(label) \(widgetTestDescribe(error))") }
                if case .next(let value) = event { results.append("\(label) \(value)") }
            }
        }
        scheduler.scheduleAt(100) {
            _ = action.execute().subscribe(record("first"))
            _ = action.execute().subscribe(record("second")) // while the first runs
        }
        scheduler.start()
        XCTAssertEqual(results, ["second notEnabled", "first 1"])

        let disabled = Action<Void, Void>(enabledIf: .just(false)) { .just(()) }
        var failure: String?
        _ = disabled.execute().subscribe(onError: { failure = widgetTestDescribe($0) })
        XCTAssertEqual(failure, "notEnabled")
    }

    func testExecuteFailsWithTheUnderlyingError() {
        let action = Action<Void, Int> { Observable.error(WidgetTestError("down")) }
        var failure: String?
        _ = action.execute().subscribe(onError: { failure = widgetTestDescribe($0) })
        XCTAssertEqual(failure, "underlyingError(down)")
    }
}

/// `button.rx.action` and the control bindings of the Action library.
final class ButtonActionTests: XCTestCase {
    func testATapRunsTheActionAndEnabledDrivesTheButton() {
        let condition = BehaviorSubject(value: false)
        var runs = 0
        let action = CocoaAction(enabledIf: condition) {
            runs += 1
            return .just(())
        }
        let button = Button()
        button.rx.action = action
        XCTAssertTrue(button.rx.action === action)
        XCTAssertFalse(button.isEnabled)
        condition.onNext(true)
        XCTAssertTrue(button.isEnabled)
        button.sendActions(for: .touchUpInside)
        XCTAssertEqual(runs, 1)
    }

    func testReplacingOrClearingTheActionEndsTheOldBinding() {
        var firstRuns = 0
        var secondRuns = 0
        let first = CocoaAction { firstRuns += 1; return .just(()) }
        let second = CocoaAction { secondRuns += 1; return .just(()) }
        let button = Button()
        button.rx.action = first
        button.rx.action = second
        button.sendActions(for: .touchUpInside)
        button.rx.action = nil
        button.sendActions(for: .touchUpInside)
        XCTAssertEqual([firstRuns, secondRuns], [0, 1])
        XCTAssertNil(button.rx.action)
    }

    func testBindWithAnInput() {
        var inputs: [String] = []
        let action = Action<String, Void> { input in
            inputs.append(input)
            return .just(())
        }
        let button = Button()
        button.setTitle("title", for: .normal)
        button.rx.bind(to: action, input: "fixed")
        button.sendActions(for: .touchUpInside)
        button.rx.bind(to: action) { $0.currentTitle ?? "" }
        button.sendActions(for: .touchUpInside)
        let field = TextField()
        field.rx.bind(to: action, controlEvent: field.rx.controlEvent(.editingDidEndOnExit)) { $0.text ?? "" }
        field.text = "entered"
        field.sendActions(for: .editingDidEndOnExit)
        XCTAssertEqual(inputs, ["fixed", "title", "entered"])
        field.rx.unbindAction()
        field.sendActions(for: .editingDidEndOnExit)
        XCTAssertEqual(inputs.count, 3)
    }

    func testTheButtonKeepsTheActionAndNotTheOtherWayRound() {
        weak var weakAction: CocoaAction?
        var button: Button? = Button()
        weak let weakButton = button
        do {
            let action = CocoaAction { .just(()) }
            weakAction = action
            button?.rx.action = action
        }
        XCTAssertNotNil(weakAction)
        button = nil
        XCTAssertNil(weakButton)
        XCTAssertNil(weakAction)
    }
}
