import Foundation
import RxCore

// Helpers for the scheduler and time-operator tests. Other branches add test helpers to
// the same module, so every name here carries the `TimeOps` prefix.

/// The error the time-operator tests send.
struct TimeOpsError: Error {}

/// Moves a value that is not `Sendable` (an observer, a disposable) to another thread in
/// a test; the test itself orders the accesses.
struct TimeOpsUnchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// A thread-safe append-only log.
final class TimeOpsLog<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Value] = []

    func append(_ value: Value) {
        lock.lock(); storage.append(value); lock.unlock()
    }

    var values: [Value] {
        lock.lock(); defer { lock.unlock() }
        return storage
    }
}

/// Records how many actions ever ran at once.
final class TimeOpsOverlap: @unchecked Sendable {
    private let lock = NSLock()
    private var current = 0
    private var _maximum = 0
    private var _total = 0

    func enter() {
        lock.lock(); current += 1; _total += 1; _maximum = max(_maximum, current); lock.unlock()
    }

    func leave() {
        lock.lock(); current -= 1; lock.unlock()
    }

    var maximum: Int { lock.lock(); defer { lock.unlock() }; return _maximum }
    var total: Int { lock.lock(); defer { lock.unlock() }; return _total }
}

/// A thread-safe optional value, set once or more.
final class TimeOpsValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: Value?

    init(_ value: Value? = nil) { storage = value }

    var value: Value? {
        get { lock.lock(); defer { lock.unlock() }; return storage }
        set { lock.lock(); storage = newValue; lock.unlock() }
    }
}
