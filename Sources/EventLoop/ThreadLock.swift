#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A pthread mutex for the few pieces of state shared with other threads.
///
/// Not `Synchronization.Mutex`: on Linux its contended path takes the lock in the
/// kernel (`FUTEX_LOCK_PI`), which ThreadSanitizer cannot see, so every hand-off
/// through it would be reported as a race. pthread mutexes are intercepted.
final class ThreadLock: @unchecked Sendable {
    // Heap memory, not a stored property: a pthread mutex must not move.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let rc = pthread_mutex_init(mutex, nil)
        precondition(rc == 0, "pthread_mutex_init failed: \(rc)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    @inline(__always)
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// An id for the calling thread, comparable across threads; never 0.
@inline(__always)
func currentThreadID() -> UInt {
    #if canImport(Darwin)
    return UInt(bitPattern: pthread_self())
    #else
    return UInt(pthread_self())
    #endif
}
