import RxCore
import XCTest

/// The subscribe half of RX-SEMANTICS.md's Core section.
final class ObservableSubscribeTests: XCTestCase {
    // MARK: - Callbacks and onDisposed

    func testCompletionCallsOnCompletedThenOnDisposedOnce() {
        let source = ManualSource<Int>()
        let log = EventLog<Int>()
        let subscription = log.subscribe(source.observable)
        source.onNext(1)
        source.onCompleted()
        subscription.dispose()
        subscription.dispose()
        XCTAssertEqual(log.entries, ["next(1)", "completed", "disposed"])
    }

    func testErrorCallsOnErrorThenOnDisposedOnce() {
        let source = ManualSource<Int>()
        let log = EventLog<Int>()
        let subscription = log.subscribe(source.observable)
        source.onNext(1)
        source.onError(testError)
        subscription.dispose()
        XCTAssertEqual(log.entries, ["next(1)", "error(TestError(1))", "disposed"])
    }

    func testExplicitDisposeCallsOnlyOnDisposedAndDropsLaterEvents() {
        let source = ManualSource<Int>()
        let log = EventLog<Int>()
        let subscription = log.subscribe(source.observable.map { $0 + 1 })
        source.onNext(1)
        subscription.dispose()
        source.onNext(2)
        source.onCompleted()
        XCTAssertEqual(log.entries, ["next(2)", "disposed"])
        XCTAssertEqual(source.disposeCount, 1)
    }

    func testSubscribeWithEventClosureSeesEveryEventInOrder() {
        var events: [String] = []
        _ = Observable.of(1, 2).subscribe { event in events.append(event.debugDescription) }
        XCTAssertEqual(events, ["next(1)", "next(2)", "completed"])
    }

    // MARK: - Grammar

    func testNothingAfterTheFirstTerminalEventReachesTheSubscriber() {
        let source = ManualSource<Int>()
        let log = EventLog<Int>()
        _ = log.subscribe(source.observable.filter { _ in true })
        source.onError(testError)
        source.onNext(1)
        source.onCompleted()
        source.onError(testError2)
        XCTAssertEqual(log.entries, ["error(TestError(1))", "disposed"])
    }

    func testTerminalEventDisposesUpstreamBeforeTheSubscriptionIsDisposed() {
        let source = ManualSource<Int>()
        let subscription = source.observable.map { $0 }.filter { _ in true }.subscribe()
        XCTAssertEqual(source.disposeCount, 0)
        source.onCompleted()
        XCTAssertEqual(source.disposeCount, 1, "a sink disposes its upstream right after a terminal event")
        subscription.dispose()
        XCTAssertEqual(source.disposeCount, 1, "and only once")
    }

    // MARK: - Missing onError

    func testMissingOnErrorGoesToDefaultErrorHandler() {
        let previous = Hooks.defaultErrorHandler
        defer { Hooks.defaultErrorHandler = previous }
        var handled: [String] = []
        Hooks.defaultErrorHandler = { _, error in handled.append("\(error)") }

        var disposed = false
        _ = Observable<Int>.error(testError).subscribe(onNext: { _ in }, onDisposed: { disposed = true })
        XCTAssertEqual(handled, ["TestError(1)"])
        XCTAssertTrue(disposed)

        _ = Observable<Int>.error(testError2).subscribe(onError: { _ in })
        XCTAssertEqual(handled, ["TestError(1)"], "a given onError keeps the error from the hook")
    }

    func testDefaultErrorHandlerPrintsWithoutTrapping() {
        // The stock handler prints; reaching the next line is the assertion.
        _ = Observable<Int>.error(testError).subscribe()
        Hooks.defaultErrorHandler(["frame"], testError)
    }

    // MARK: - subscribe(with:)

    func testSubscribeWithPassesTheObject() {
        final class Owner { var seen: [Int] = []; var completed = false; var disposed = false }
        let owner = Owner()
        _ = Observable.of(1, 2).subscribe(
            with: owner,
            onNext: { owner, value in owner.seen.append(value) },
            onCompleted: { owner in owner.completed = true },
            onDisposed: { owner in owner.disposed = true }
        )
        XCTAssertEqual(owner.seen, [1, 2])
        XCTAssertTrue(owner.completed)
        XCTAssertTrue(owner.disposed)
    }

    func testSubscribeWithHoldsTheObjectWeaklyAndSkipsCallbacksOnceItIsGone() {
        final class Owner {}
        let source = ManualSource<Int>()
        var owner: Owner? = Owner()
        weak let weakOwner = owner
        var calls: [String] = []
        let subscription = source.observable.subscribe(
            with: owner!,
            onNext: { _, value in calls.append("next(\(value))") },
            onError: { _, _ in calls.append("error") },
            onCompleted: { _ in calls.append("completed") },
            onDisposed: { _ in calls.append("disposed") }
        )
        source.onNext(1)
        owner = nil
        XCTAssertNil(weakOwner, "the subscription must not keep the object alive")
        source.onNext(2)
        source.onCompleted()
        subscription.dispose()
        XCTAssertEqual(calls, ["next(1)"])
    }

    // MARK: - Trampoline

    func testTopLevelSubscribeRunsInsideTheTrampoline() {
        XCTAssertTrue(CurrentThreadScheduler.isScheduleRequired)
        var requiredDuringSubscribe: Bool?
        _ = Observable<Int>.create { _ in
            requiredDuringSubscribe = CurrentThreadScheduler.isScheduleRequired
            return Disposables.create()
        }.subscribe()
        XCTAssertEqual(requiredDuringSubscribe, false)
        XCTAssertTrue(CurrentThreadScheduler.isScheduleRequired, "the trampoline ends with the top-level subscribe")
    }

    func testWorkScheduledDuringSubscribeRunsAfterItButBeforeSubscribeReturns() {
        var log: [String] = []
        _ = Observable<Int>.create { _ in
            _ = CurrentThreadScheduler.instance.schedule(()) { _ in
                log.append("scheduled")
                return Disposables.create()
            }
            log.append("subscribed")
            return Disposables.create()
        }.subscribe()
        log.append("returned")
        XCTAssertEqual(log, ["subscribed", "scheduled", "returned"])
    }

    func testSequencesSubscribedInOneTrampolineActionInterleave() {
        // As in RxSwift: each step of `of` is trampolined, so two sequences subscribed
        // from the same action alternate.
        var log: [String] = []
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            _ = Observable.of(1, 2, 3).subscribe(onNext: { log.append("a\($0)") }, onCompleted: { log.append("a|") })
            _ = Observable.of(1, 2, 3).subscribe(onNext: { log.append("b\($0)") }, onCompleted: { log.append("b|") })
            return Disposables.create()
        }
        XCTAssertEqual(log, ["a1", "b1", "a2", "b2", "a3", "b3", "a|", "b|"])
    }
}
