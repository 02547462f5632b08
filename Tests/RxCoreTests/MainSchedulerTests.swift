import Foundation
import RxCore
import XCTest

/// With no loop installed, the process main thread and main dispatch queue are the
/// loop; XCTest runs test methods on the main thread, and waiting for an expectation
/// spins the main run loop, which drains the main queue.
final class MainSchedulerTests: XCTestCase {
    private var previousLoop: MainRunLoop?

    override func setUp() {
        super.setUp()
        // Another test target may have installed a loop; these tests are about the
        // fallback, and put back whatever was there.
        previousLoop = MainScheduler.runLoop
        MainScheduler.install(nil)
        drainMainQueue()
    }

    override func tearDown() {
        MainScheduler.install(previousLoop)
        super.tearDown()
    }

    /// Runs what is queued on the main queue, and what that work queues in turn (each
    /// pass's marker lands behind the work the previous pass queued), `passes` levels deep.
    private func drainMainQueue(passes: Int = 4) {
        for pass in 0..<passes {
            let drained = expectation(description: "main queue drained, pass \(pass)")
            DispatchQueue.main.async { drained.fulfill() }
            wait(for: [drained], timeout: 5)
        }
    }

    func testTestsRunOnTheMainThread() {
        XCTAssertTrue(Thread.isMainThread)
        XCTAssertTrue(MainScheduler.isMainThread)
    }

    func testNestedSchedulesGiveOneToFiveOnceDrained() {
        var messages: [Int] = []
        var ranImmediately = false
        _ = MainScheduler.instance.schedule(()) { _ in
            ranImmediately = true
            messages.append(1)
            _ = MainScheduler.instance.schedule(()) { _ in
                messages.append(3)
                _ = MainScheduler.instance.schedule(()) { _ in
                    messages.append(5)
                    return Disposables.create()
                }
                messages.append(4)
                return Disposables.create()
            }
            messages.append(2)
            return Disposables.create()
        }
        XCTAssertTrue(ranImmediately, "on the main thread with nothing in flight, instance runs at once")
        XCTAssertEqual(messages, [1, 2])
        drainMainQueue()
        XCTAssertEqual(messages, [1, 2, 3, 4, 5])
    }

    func testAsyncInstanceAlwaysDefers() {
        var ran = false
        _ = MainScheduler.asyncInstance.schedule(()) { _ in
            ran = true
            return Disposables.create()
        }
        XCTAssertFalse(ran)
        drainMainQueue()
        XCTAssertTrue(ran)
    }

    func testDisposingDeferredWorkSkipsIt() {
        var ran = false
        let scheduled = MainScheduler.asyncInstance.schedule(()) { _ in
            ran = true
            return Disposables.create()
        }
        scheduled.dispose()
        drainMainQueue()
        XCTAssertFalse(ran)
    }

    func testFromABackgroundThreadHopsToMain() {
        let ranOnMain = expectation(description: "ran on main")
        DispatchQueue.global().async {
            XCTAssertFalse(Thread.isMainThread)
            _ = MainScheduler.instance.schedule(()) { _ in
                XCTAssertTrue(Thread.isMainThread)
                ranOnMain.fulfill()
                return Disposables.create()
            }
        }
        wait(for: [ranOnMain], timeout: 5)
    }

    func testScheduleRelativeRunsOnMain() {
        let fired = expectation(description: "fired")
        _ = MainScheduler.instance.scheduleRelative(7, dueTime: .milliseconds(5)) { value in
            XCTAssertTrue(Thread.isMainThread)
            XCTAssertEqual(value, 7)
            fired.fulfill()
            return Disposables.create()
        }
        wait(for: [fired], timeout: 5)
    }
}
