#if TRACE_RESOURCES
import Synchronization

/// The number of live Rx objects (observables, observers and sinks, disposables, virtual-time
/// schedulers), counted only when RxCore is built with `-DTRACE_RESOURCES`, as RxSwift's
/// `Resources` does. Tests record `total` in `setUp` and assert it is back to that value in
/// `tearDown`, which catches subscriptions that outlive their disposal.
public struct Resources {
    private static let count = Atomic<Int32>(0)
    fileprivate static let serialDispatchQueueObservables = Atomic<Int32>(0)

    /// The number of Rx objects alive now.
    public static var total: Int32 {
        count.load(ordering: .relaxed)
    }

    /// Counts one more live object; returns the new total.
    @discardableResult
    public static func incrementTotal() -> Int32 {
        count.wrappingAdd(1, ordering: .relaxed).newValue
    }

    /// Counts one object fewer; returns the new total.
    @discardableResult
    public static func decrementTotal() -> Int32 {
        count.wrappingSubtract(1, ordering: .relaxed).newValue
    }

    /// The number of live `observe(on:)` sequences that take the serial-scheduler path
    /// (a `SerialDispatchQueueScheduler` or `MainScheduler`), as RxSwift counts them.
    public static var numberOfSerialDispatchQueueObservables: Int32 {
        serialDispatchQueueObservables.load(ordering: .relaxed)
    }
}

/// A stored property that counts its owner in ``Resources/total`` for the owner's lifetime:
/// one line in each counted class, no `init`/`deinit` edits, and no storage (it is empty).
struct ResourceToken: ~Copyable, Sendable {
    init() {
        Resources.incrementTotal()
    }

    deinit {
        Resources.decrementTotal()
    }
}

/// ``ResourceToken`` that also counts ``Resources/numberOfSerialDispatchQueueObservables``.
struct SerialDispatchQueueObservableToken: ~Copyable, Sendable {
    init() {
        Resources.serialDispatchQueueObservables.wrappingAdd(1, ordering: .relaxed)
    }

    deinit {
        Resources.serialDispatchQueueObservables.wrappingSubtract(1, ordering: .relaxed)
    }
}
#endif
