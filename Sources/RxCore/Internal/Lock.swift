#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A pthread mutex in one allocation (the mutex lives in the object's tail storage, so
/// its address is stable). `Synchronization.Mutex` is not used because its `sending`
/// closures reject the non-Sendable state Rx types guard.
final class Lock: ManagedBuffer<Void, pthread_mutex_t> {
    /// A new lock; a recursive one may be taken again by the thread that holds it.
    static func make(recursive: Bool = false) -> Lock {
        let buffer = Lock.create(minimumCapacity: 1) { _ in () }
        let lock = unsafeDowncast(buffer, to: Lock.self)
        lock.withUnsafeMutablePointerToElements { mutex in
            var attributes = pthread_mutexattr_t()
            pthread_mutexattr_init(&attributes)
            if recursive {
                pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
            }
            let rc = pthread_mutex_init(mutex, &attributes)
            precondition(rc == 0, "pthread_mutex_init failed: \(rc)")
            pthread_mutexattr_destroy(&attributes)
        }
        return lock
    }

    deinit {
        _ = withUnsafeMutablePointerToElements { pthread_mutex_destroy($0) }
    }

    @inline(__always)
    func lock() {
        _ = withUnsafeMutablePointerToElements { pthread_mutex_lock($0) }
    }

    @inline(__always)
    func unlock() {
        _ = withUnsafeMutablePointerToElements { pthread_mutex_unlock($0) }
    }

    @inline(__always)
    func performLocked<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// Moves a value across an isolation boundary that Rx itself serialises (a scheduler
/// running an action, a queue hopping back to the loop). The Rx grammar, not the type
/// system, guarantees there is no concurrent access.
struct UncheckedSendable<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}
