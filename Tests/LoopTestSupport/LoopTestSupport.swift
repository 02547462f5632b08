// Test helpers shared by the loop-level test targets (EventLoopTests, RedisTests):
// a gate, a recorder, a loop on its own thread, polling. Test code only.
import EventLoop
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How long any test waits for something that should happen at once.
package let testTimeout: TimeInterval = 10

/// A flag one thread opens and others wait for. Built on NSCondition (pthread), which
/// ThreadSanitizer understands; DispatchSemaphore's uncontended path on Linux is plain
/// atomics in an uninstrumented library, so TSan would miss the hand-off.
package final class Gate: @unchecked Sendable {
    package init() {}
    private let condition = NSCondition()
    private var isOpen = false

    package func open() {
        condition.lock()
        isOpen = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until opened; `false` on timeout.
    package func wait(timeout: TimeInterval = testTimeout) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !isOpen {
            if !condition.wait(until: deadline) { return isOpen }
        }
        return true
    }
}

/// Values appended from any thread, read after the fact.
package final class Recorder<Value: Sendable>: @unchecked Sendable {
    package init() {}
    private let lock = NSLock()
    private var storage: [Value] = []
    private var waiters: [(count: Int, gate: Gate)] = []

    package func append(_ value: Value) {
        lock.lock()
        storage.append(value)
        let ready = waiters.filter { storage.count >= $0.count }
        waiters.removeAll { storage.count >= $0.count }
        lock.unlock()
        ready.forEach { $0.gate.open() }
    }

    package var values: [Value] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }

    /// Waits until at least `count` values were appended; `false` on timeout.
    package func wait(for count: Int, timeout: TimeInterval = testTimeout) -> Bool {
        let gate = Gate()
        lock.lock()
        if storage.count >= count {
            lock.unlock()
            return true
        }
        waiters.append((count, gate))
        lock.unlock()
        return gate.wait(timeout: timeout)
    }
}

/// A value that is only touched on the loop thread (the tests keep loop-confined objects
/// such as listeners here). The loop, not the type system, serialises access.
package final class LoopBox<Value>: @unchecked Sendable {
    package var value: Value
    package init(_ value: Value) { self.value = value }
}

/// A weak reference readable from the test thread (to check that objects are released).
package final class WeakBox<Object: AnyObject>: @unchecked Sendable {
    package init() {}
    private let lock = NSLock()
    private weak var object: Object?
    package var value: Object? {
        get { lock.lock(); defer { lock.unlock() }; return object }
        set { lock.lock(); object = newValue; lock.unlock() }
    }
}

/// An event loop running on a background thread for the length of a test.
package final class LoopThread: @unchecked Sendable {
    package let loop: EventLoop
    private let finished = Gate()

    package init() throws {
        loop = try EventLoop()
        let loop = self.loop
        let finished = self.finished
        let thread = Thread {
            loop.run()
            finished.open()
        }
        thread.name = "event loop"
        thread.start()
        // Returns once run() has installed the loop and is turning.
        let started = Gate()
        loop.execute { started.open() }
        guard started.wait() else { throw TestError("event loop did not start") }
    }

    /// Runs `body` on the loop thread and returns its result.
    package func sync<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) throws -> Result {
        let done = Gate()
        let result = LoopBox<Swift.Result<Result, any Error>?>(nil)
        loop.execute {
            result.value = Swift.Result { try body() }
            done.open()
        }
        guard done.wait() else { throw TestError("loop did not run the work in time") }
        return try result.value!.get()
    }

    /// Stops the loop and waits for `run()` to return.
    package func stop(file: StaticString = #filePath, line: UInt = #line) {
        loop.stop()
        XCTAssertTrue(finished.wait(), "run() did not return after stop()", file: file, line: line)
    }
}

package struct TestError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

/// Monotonic time in nanoseconds (CLOCK_MONOTONIC, the clock uv_hrtime reads).
package func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

/// Polls `condition` until it holds or `timeout` passes.
package func eventually(timeout: TimeInterval = testTimeout, _ condition: () -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while !condition() {
        if Date() > deadline { return false }
        usleep(2_000)
    }
    return true
}

/// A blocking POSIX TCP client, so the server side is tested against the kernel and not
/// against itself.
