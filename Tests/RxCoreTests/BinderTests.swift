import Foundation
import RxCore
import RxTesting
import XCTest

final class BinderTests: XCTestCase {
    final class Target {
        var values: [Int] = []
    }

    struct BindingFailure: Error {}

    func testBindsSynchronouslyOnMainThreadAndHoldsTargetWeakly() {
        var target: Target? = Target()
        weak let weakTarget = target
        let binder = Binder(target!) { target, value in target.values.append(value) }
        binder.onNext(1)
        XCTAssertEqual(target?.values, [1])
        target = nil
        XCTAssertNil(weakTarget, "the binder must not keep its target alive")
        binder.onNext(2) // skipped: target gone, and no crash
    }

    func testCompletedIsIgnoredAndNextAfterCompletedStillBinds() {
        let target = Target()
        let binder = Binder(target) { target, value in target.values.append(value) }
        binder.onNext(1)
        binder.onCompleted()
        binder.onNext(2)
        XCTAssertEqual(target.values, [1, 2])
    }

    func testErrorGoesToBindingErrorHandlerAndDoesNotTrap() {
        let previous = Hooks.bindingErrorHandler
        defer { Hooks.bindingErrorHandler = previous }
        var reported: [String] = []
        Hooks.bindingErrorHandler = { reported.append("\($0)") }
        let target = Target()
        let binder = Binder(target) { target, value in target.values.append(value) }
        binder.onError(BindingFailure())
        binder.onNext(3)
        XCTAssertEqual(reported, ["BindingFailure()"])
        XCTAssertEqual(target.values, [3])
    }

    func testBindToBinderFromObservable() {
        let target = Target()
        let disposable = Observable<Int>.create { observer in
            observer.onNext(1)
            observer.onNext(2)
            observer.onCompleted()
            return Disposables.create()
        }
        .map { $0 * 10 }
        .bind(to: Binder(target) { target, value in target.values.append(value) })
        disposable.dispose()
        XCTAssertEqual(target.values, [10, 20])
    }

    func testUsesGivenScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let target = Target()
        var times: [Int] = []
        let binder = Binder(target, scheduler: scheduler) { target, value in
            target.values.append(value)
            times.append(scheduler.clock)
        }
        scheduler.scheduleAt(100) { binder.onNext(7) }
        scheduler.start()
        XCTAssertEqual(target.values, [7])
        XCTAssertEqual(times, [101], "scheduled on the test scheduler, one tick of processing delay")
    }

    func testFromBackgroundThreadHopsToMainThread() {
        let target = Target()
        let done = expectation(description: "bound on main")
        var boundOnMain = false
        let binder = Binder(target) { target, value in
            boundOnMain = Thread.isMainThread
            target.values.append(value)
            done.fulfill()
        }
        let box = UncheckedBox(binder)
        DispatchQueue.global().async {
            box.value.onNext(5)
        }
        wait(for: [done], timeout: 5)
        XCTAssertTrue(boundOnMain)
        XCTAssertEqual(target.values, [5])
    }

    func testOneBindersBindingMayDriveAnotherSynchronously() {
        let second = Target()
        let secondBinder = Binder(second) { target, value in target.values.append(value) }
        let first = Target()
        let firstBinder = Binder(first) { target, value in
            target.values.append(value)
            secondBinder.onNext(value + 100)
        }
        firstBinder.onNext(1)
        XCTAssertEqual(first.values, [1])
        XCTAssertEqual(second.values, [101], "a fresh MainScheduler per binder, as in RxSwift")
    }
}

struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
