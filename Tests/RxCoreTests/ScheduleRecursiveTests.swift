import RxCore
import RxTesting
import XCTest

final class ScheduleRecursiveTests: XCTestCase {
    func testRecursionOnTheTrampolineRunsEveryStep() {
        var log: [Int] = []
        _ = CurrentThreadScheduler.instance.scheduleRecursive(0) { n, recurse in
            log.append(n)
            if n < 4 { recurse(n + 1) }
        }
        XCTAssertEqual(log, [0, 1, 2, 3, 4])
    }

    func testSeveralRecursionsFromOneStepRunInCallOrder() {
        // As with queuing every step: 0 queues 1 and 2; 1 queues 3 behind 2; 2 queues 4.
        var log: [Int] = []
        _ = CurrentThreadScheduler.instance.scheduleRecursive(0) { n, recurse in
            log.append(n)
            switch n {
            case 0: recurse(1); recurse(2)
            case 1: recurse(3)
            case 2: recurse(4)
            default: break
            }
        }
        XCTAssertEqual(log, [0, 1, 2, 3, 4])
    }

    func testDisposingOnTheTrampolineStopsTheRecursion() {
        var log: [Int] = []
        var disposable: Disposable?
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            disposable = CurrentThreadScheduler.instance.scheduleRecursive(0) { n, recurse in
                log.append(n)
                if n == 2 { disposable?.dispose() }
                recurse(n + 1)
            }
            return Disposables.create()
        }
        XCTAssertEqual(log, [0, 1, 2])
    }

    func testDeepRecursionOnTheTrampolineDoesNotGrowTheStack() {
        var count = 0
        _ = CurrentThreadScheduler.instance.scheduleRecursive(0) { n, recurse in
            count += 1
            if n < 500_000 { recurse(n + 1) }
        }
        XCTAssertEqual(count, 500_001)
    }

    func testRecursionOnAnotherSchedulerSchedulesEachStepAndCancelsOnDispose() {
        let scheduler = TestScheduler(initialClock: 0)
        var log: [String] = []
        var disposable: Disposable?
        scheduler.scheduleAt(100) {
            disposable = scheduler.scheduleRecursive(0) { n, recurse in
                log.append("\(n)@\(scheduler.clock)")
                recurse(n + 1)
            }
        }
        scheduler.scheduleAt(103) { disposable?.dispose() }
        scheduler.start()
        XCTAssertEqual(log, ["0@101", "1@102"])
    }
}
