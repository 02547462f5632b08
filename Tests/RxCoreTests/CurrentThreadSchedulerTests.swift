import RxCore
import XCTest

final class CurrentThreadSchedulerTests: XCTestCase {
    func testFirstScheduleRunsImmediately() {
        var ran = false
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            ran = true
            return Disposables.create()
        }
        XCTAssertTrue(ran)
    }

    func testNestedSchedulesQueueAndRunAfterTheOuterActionReturns() {
        let scheduler = CurrentThreadScheduler.instance
        var log: [String] = []
        _ = scheduler.schedule(()) { _ in
            log.append("1 begin")
            _ = scheduler.schedule(()) { _ in
                log.append("2a begin")
                _ = scheduler.schedule(()) { _ in
                    log.append("3")
                    return Disposables.create()
                }
                log.append("2a end")
                return Disposables.create()
            }
            _ = scheduler.schedule(()) { _ in
                log.append("2b")
                return Disposables.create()
            }
            log.append("1 end")
            return Disposables.create()
        }
        // Level 3 was queued while 2a ran, so it runs after 2b (queued earlier).
        XCTAssertEqual(log, ["1 begin", "1 end", "2a begin", "2a end", "2b", "3"])
    }

    func testDisposingAQueuedItemSkipsIt() {
        let scheduler = CurrentThreadScheduler.instance
        var log: [String] = []
        _ = scheduler.schedule(()) { _ in
            let skipped = scheduler.schedule(()) { _ in
                log.append("skipped")
                return Disposables.create()
            }
            _ = scheduler.schedule(()) { _ in
                log.append("kept")
                return Disposables.create()
            }
            skipped.dispose()
            return Disposables.create()
        }
        XCTAssertEqual(log, ["kept"])
    }

    func testIsScheduleRequiredOnlyOutsideTheTrampoline() {
        XCTAssertTrue(CurrentThreadScheduler.isScheduleRequired)
        var inside: Bool?
        var nested: Bool?
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            inside = CurrentThreadScheduler.isScheduleRequired
            _ = CurrentThreadScheduler.instance.schedule(()) { _ in
                nested = CurrentThreadScheduler.isScheduleRequired
                return Disposables.create()
            }
            return Disposables.create()
        }
        XCTAssertEqual(inside, false)
        XCTAssertEqual(nested, false)
        XCTAssertTrue(CurrentThreadScheduler.isScheduleRequired)
    }

    func testTrampolineIsPerThread() {
        let done = expectation(description: "other thread")
        let otherThreadRequired = TimeOpsValue<Bool>()
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            // A trampoline runs here, but not on another thread.
            Thread.detachNewThread {
                otherThreadRequired.value = CurrentThreadScheduler.isScheduleRequired
                done.fulfill()
            }
            return Disposables.create()
        }
        wait(for: [done], timeout: 5)
        XCTAssertEqual(otherThreadRequired.value, true)
    }

    func testSubscribeMadeOutsideAnActionRunsInsideTheTrampoline() {
        var requiredDuringSubscribe: Bool?
        _ = Observable<Int>.create { _ in
            requiredDuringSubscribe = CurrentThreadScheduler.isScheduleRequired
            return Disposables.create()
        }
        .subscribe()
        XCTAssertEqual(requiredDuringSubscribe, false)
    }
}
