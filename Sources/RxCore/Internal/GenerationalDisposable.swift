/// Holds the disposable of the latest "pump": work an operator schedules when its queue
/// goes from idle to busy, and which stops by itself once the queue is empty.
///
/// A `SerialDisposable` assigned after `schedule…` returns is not enough when events come
/// from several threads: pump 1 may finish and pump 2 start and be stored before pump 1's
/// assignment lands, which would then dispose the live pump 2. Here each pump is numbered
/// when it starts (under the owner's lock, together with its busy flag) and a store for
/// an older number is dropped: that pump has already finished.
final class GenerationalDisposable: Cancelable, @unchecked Sendable {
    private let lock = Lock.make()
    private var generation: UInt64 = 0
    private var current: Disposable?
    private var disposed = false

    var isDisposed: Bool {
        lock.performLocked { disposed }
    }

    /// Numbers a new pump. Call it where the owner marks itself busy, under its lock.
    func begin() -> UInt64 {
        lock.performLocked {
            generation &+= 1
            return generation
        }
    }

    /// Keeps `disposable` for pump `pump`, unless a newer pump began or this was disposed
    /// (then `disposable` is disposed).
    func store(_ disposable: Disposable, for pump: UInt64) {
        let toDispose: Disposable? = lock.performLocked {
            if disposed || pump != generation { return disposable }
            let previous = current
            current = disposable
            return previous
        }
        toDispose?.dispose()
    }

    func dispose() {
        let toDispose: Disposable? = lock.performLocked {
            if disposed { return nil }
            disposed = true
            let previous = current
            current = nil
            return previous
        }
        toDispose?.dispose()
    }
}
