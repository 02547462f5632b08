import Foundation
import RxCore
import RxWidgets
import XCTest

private final class Counter: ReactiveCompatible, LifetimeTracked {
    let lifetimeToken = LifetimeToken()
    var count = 0
    var name: String?
}

extension Reactive where Base: Counter {
    fileprivate var doubled: Binder<Int> {
        Binder(base) { counter, value in counter.count = value * 2 }
    }
}

private struct Plain: ReactiveCompatible {}

extension Reactive where Base == Plain {
    fileprivate static var kind: String { "static extension" }
    fileprivate var kind: String { "instance extension" }
}

/// `Reactive`, `ReactiveCompatible`, key-path binders and `rx.deallocated`.
final class ReactiveTests: XCTestCase {
    func testKeyPathBinderAssignsAnyWritableProperty() {
        let counter = Counter()
        Observable.just(3).bind(to: counter.rx.count).dispose()
        Observable.just("three").bind(to: counter.rx.name).dispose()
        XCTAssertEqual(counter.count, 3)
        XCTAssertEqual(counter.name, "three")

        let label = Label()
        Observable.just(Color.red).bind(to: label.rx.textColor).dispose()
        Observable.just(true).bind(to: label.rx.isHidden).dispose()
        Observable.just(CGFloat(0.5)).bind(to: label.rx.alpha).dispose()
        Observable.just(Color.blue).bind(to: label.rx.backgroundColor).dispose()
        XCTAssertEqual(label.textColor, .red)
        XCTAssertTrue(label.isHidden)
        XCTAssertEqual(label.alpha, 0.5)
        XCTAssertEqual(label.backgroundColor, .blue)
    }

    func testCustomExtensionsAndStaticNamespace() {
        let counter = Counter()
        counter.rx.doubled.onNext(4)
        XCTAssertEqual(counter.count, 8)
        XCTAssertTrue(counter.rx.base === counter)
        XCTAssertEqual(Plain.rx.kind, "static extension")
        XCTAssertEqual(Plain().rx.kind, "instance extension")

        var plain = Plain()
        plain.rx = Reactive(Plain()) // the setter exists and does nothing
        Plain.rx = Reactive<Plain>.self
        _ = plain
    }

    func testBinderHoldsItsTargetWeaklyAndSkipsAfterDeallocation() {
        var label: Label? = Label()
        weak let weakLabel = label
        let binder = label!.rx.text
        binder.onNext("hello")
        XCTAssertEqual(label?.text, "hello")
        label = nil
        XCTAssertNil(weakLabel, "a binder must not keep its target alive")
        binder.onNext("nobody") // skipped, no crash

        var counter: Counter? = Counter()
        let keyPathBinder = counter!.rx.count
        counter = nil
        keyPathBinder.onNext(1)
    }

    func testBinderIgnoresCompletedAndReportsErrors() {
        let label = Label()
        let errors = widgetTestBindingErrors {
            label.rx.text.onNext("a")
            label.rx.text.onCompleted()
            label.rx.text.onNext("b") // a next after completed still binds
            label.rx.text.onError(WidgetTestError())
        }
        XCTAssertEqual(label.text, "b")
        XCTAssertEqual(errors, ["boom"])
    }

    func testBinderFromAnotherThreadRunsOnTheMainThread() {
        let label = Label()
        let done = expectation(description: "bound")
        let onMain = WidgetTestBox(false)
        let binder = UncheckedWidgetTestValue(Binder<String?>(label) { label, text in
            onMain.value = Thread.isMainThread
            label.text = text
            done.fulfill()
        })
        DispatchQueue.global().async {
            binder.value.onNext("from far")
        }
        wait(for: [done], timeout: 5)
        XCTAssertTrue(onMain.value)
        XCTAssertEqual(label.text, "from far")
    }

    func testDeallocatedEmitsThenCompletesWhenTheWidgetGoes() {
        var view: View? = View()
        var events: [String] = []
        _ = view!.rx.deallocated.subscribe(onNext: { events.append("next") }, onCompleted: { events.append("completed") })
        XCTAssertEqual(events, [])
        view = nil
        XCTAssertEqual(events, ["next", "completed"])
    }

    func testAnyClassOptsInThroughALifetimeToken() {
        var counter: Counter? = Counter()
        let deallocated = counter!.rx.deallocated
        var events: [String] = []
        _ = deallocated.subscribe(onNext: { events.append("next") }, onCompleted: { events.append("completed") })
        counter = nil
        XCTAssertEqual(events, ["next", "completed"])

        // Replayed to late subscribers.
        var late: [String] = []
        _ = deallocated.subscribe(onNext: { late.append("next") }, onCompleted: { late.append("completed") })
        XCTAssertEqual(late, ["next", "completed"])
    }

    func testTakeUntilDeallocatedEndsASubscriptionWithItsOwner() {
        var counter: Counter? = Counter()
        let ticks = PublishSubject<Int>()
        var seen: [Int] = []
        var completed = false
        _ = ticks.take(until: counter!.rx.deallocated).subscribe(onNext: { seen.append($0) }, onCompleted: { completed = true })
        ticks.onNext(1)
        counter = nil
        ticks.onNext(2)
        XCTAssertEqual(seen, [1])
        XCTAssertTrue(completed)
    }
}
