import RxCore
import RxTesting
import XCTest

final class DoTests: XCTestCase {
    func testHandlersRunAroundEachEventInOrder() {
        var log: [String] = []
        _ = Observable.of(1).do(
            onNext: { log.append("onNext \($0)") },
            afterNext: { log.append("afterNext \($0)") },
            onCompleted: { log.append("onCompleted") },
            afterCompleted: { log.append("afterCompleted") },
            onSubscribe: { log.append("onSubscribe") },
            onSubscribed: { log.append("onSubscribed") },
            onDispose: { log.append("onDispose") }
        ).subscribe(
            onNext: { log.append("next \($0)") },
            onCompleted: { log.append("completed") },
            onDisposed: { log.append("disposed") }
        )
        XCTAssertEqual(log, [
            "onSubscribe", "onSubscribed",
            "onNext 1", "next 1", "afterNext 1",
            "onCompleted", "completed", "disposed", "afterCompleted",
            "onDispose",
        ])
    }

    func testErrorHandlersRunAroundTheError() {
        var log: [String] = []
        _ = Observable<Int>.error(testError).do(
            onError: { log.append("onError \($0)") },
            afterError: { log.append("afterError \($0)") },
            onDispose: { log.append("onDispose") }
        ).subscribe(onError: { log.append("error \($0)") })
        XCTAssertEqual(log, ["onError TestError(1)", "error TestError(1)", "afterError TestError(1)", "onDispose"])
    }

    func testPassesEventsThroughUnchanged() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
        var sum = 0
        let res = scheduler.start { xs.do(onNext: { sum += $0 }) }
        XCTAssertEqual(res.events, [.next(210, 1), .next(220, 2), .completed(250)])
        XCTAssertEqual(sum, 3)
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testThrowingOnNextSendsItsErrorInsteadOfTheElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
        let res = scheduler.start { xs.do(onNext: { if $0 == 2 { throw testError } }) }
        XCTAssertEqual(res.events, [.next(210, 1), .error(220, testError)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testThrowingAfterNextSendsItsErrorAfterTheElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
        let res = scheduler.start { xs.do(afterNext: { _ in throw testError }) }
        XCTAssertEqual(res.events, [.next(210, 1), .error(210, testError)])
    }

    func testThrowingOnCompletedSendsAnError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        let res = scheduler.start { xs.do(onCompleted: { throw testError }) }
        XCTAssertEqual(res.events, [.next(210, 1), .error(250, testError)])
    }

    func testThrowingOnErrorReplacesTheError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.error(210, testError)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.do(onError: { _ in throw testError2 }) }
        XCTAssertEqual(res.events, [.error(210, testError2)])
    }

    func testOnDisposeRunsOnExplicitDispose() {
        var disposals = 0
        let subscription = Observable<Int>.never().do(onDispose: { disposals += 1 }).subscribe()
        XCTAssertEqual(disposals, 0)
        subscription.dispose()
        subscription.dispose()
        XCTAssertEqual(disposals, 1)
    }

    func testThrowingAfterCompletedCannotFollowTheTerminalEventAndIsReported() {
        let previous = Hooks.defaultErrorHandler
        defer { Hooks.defaultErrorHandler = previous }
        var reported: [String] = []
        Hooks.defaultErrorHandler = { _, error in reported.append("\(error)") }
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        let res = scheduler.start { xs.do(afterCompleted: { throw testError }) }
        XCTAssertEqual(res.events, [.next(210, 1), .completed(250)])
        XCTAssertEqual(reported, ["TestError(1)"])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 250)])
    }

    func testThrowingAfterErrorDoesNotSendASecondError() {
        let previous = Hooks.defaultErrorHandler
        defer { Hooks.defaultErrorHandler = previous }
        var reported: [String] = []
        Hooks.defaultErrorHandler = { _, error in reported.append("\(error)") }
        // `catch` downstream would take a second error for its fallback's error.
        var events: [String] = []
        _ = Observable<Int>.error(testError)
            .do(afterError: { _ in throw testError2 })
            .catch { _ in .never() }
            .subscribe { events.append($0.debugDescription) }
        XCTAssertEqual(events, [])
        XCTAssertEqual(reported, ["TestError(2)"])
    }
}
