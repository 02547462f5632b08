import LoopTestSupport
import EventLoop
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Signals are process-wide: these tests use SIGUSR1/SIGUSR2, which nothing else in the
/// test process uses, and raise them only while a watcher is installed (their default
/// action would end the process). SIGINT/SIGTERM are tested through the `bindery`
/// executable in `BinderyExecutableTests`.
final class SignalsTests: XCTestCase {
    func testWatchedSignalRunsTheHandlerOnTheLoopThread() throws {
        let runner = try LoopThread()
        defer { runner.stop() }
        let loop = runner.loop
        let received = Recorder<String>()
        let watcher = LoopBox<SignalWatcher?>(nil)
        try runner.sync {
            watcher.value = try SignalWatcher(loop: loop, signals: [SIGUSR1, SIGUSR2]) { signal in
                received.append("\(signal == SIGUSR1 ? "USR1" : "USR2") on loop: \(loop.isLoopThread)")
            }
        }
        kill(getpid(), SIGUSR1)
        XCTAssertTrue(received.wait(for: 1))
        kill(getpid(), SIGUSR2)
        XCTAssertTrue(received.wait(for: 2))
        XCTAssertEqual(received.values, ["USR1 on loop: true", "USR2 on loop: true"])

        let closed = Gate()
        try runner.sync { watcher.value!.close { closed.open() } }
        XCTAssertTrue(closed.wait())
    }

    func testInvalidSignalNumberThrows() throws {
        let runner = try LoopThread()
        defer { runner.stop() }
        let loop = runner.loop
        let error = try runner.sync { () -> UVError? in
            do throws(UVError) {
                let watcher = try SignalWatcher(loop: loop, signals: [SIGUSR1, 0]) { _ in }
                watcher.close()
                return nil
            } catch {
                return error
            }
        }
        XCTAssertEqual(error?.name, "EINVAL")
    }

    func testClosedWatcherIsReleased() throws {
        let runner = try LoopThread()
        defer { runner.stop() }
        let loop = runner.loop
        let released = WeakBox<SignalWatcher>()
        let closed = Gate()
        try runner.sync {
            let watcher = try SignalWatcher(loop: loop, signals: [SIGUSR2]) { _ in }
            released.value = watcher
            watcher.close { closed.open() }
        }
        XCTAssertTrue(closed.wait())
        XCTAssertTrue(eventually { released.value == nil }, "a closed SignalWatcher leaked")
    }
}
