#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs work on the current thread, trampolined: the first action scheduled on a thread
/// runs at once; actions it schedules in turn are queued and run, in order, after it
/// returns.
///
/// Every top-level `subscribe` to an operator runs inside this trampoline, so
/// re-entrant subscriptions do not recurse without bound.
public final class CurrentThreadScheduler: ImmediateSchedulerType, Sendable {
    /// The shared instance.
    public static let instance = CurrentThreadScheduler()

    private init() {}

    /// `true` when no trampoline is running on this thread, so scheduling runs at once.
    public static var isScheduleRequired: Bool {
        TrampolineState.current?.running != true
    }


    /// Runs `body` as this thread's first trampoline action, then what it queued. The
    /// caller has checked ``isScheduleRequired``. `Producer.subscribe`'s path: unlike
    /// `schedule`, no escaping closure and no generic state.
    static func runAsTrampolineOwner(_ body: () -> Disposable) -> Disposable {
        let trampoline = TrampolineState.currentOrNew()
        trampoline.running = true
        defer {
            trampoline.running = false
        }
        let disposable = body()
        trampoline.drain()
        return disposable
    }

    /// Runs `action` now if no trampoline is running on this thread, else queues it.
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let trampoline = TrampolineState.currentOrNew()
        if trampoline.running {
            let item = ScheduledItem(state: state, action: action)
            trampoline.queue.append(item)
            return item
        }
        trampoline.running = true
        defer {
            trampoline.running = false
        }
        let disposable = action(state)
        trampoline.drain()
        return disposable
    }
}

/// The per-thread trampoline, kept in thread-local storage (one object per thread,
/// released by the key's destructor when the thread exits).
///
/// Only its own thread touches it, so its fields skip dynamic exclusivity checks (they
/// would dominate the per-step cost of recursive scheduling, which reads them every step).
final class TrampolineState {
    @exclusivity(unchecked) var running = false
    @exclusivity(unchecked) var queue: [ScheduledItem] = []
    /// The index of the next queued item to run.
    @exclusivity(unchecked) var head = 0

    /// `true` when queued actions have not run yet.
    ///
    /// Recursive scheduling uses it to run its next step in place when nothing else is
    /// waiting, which gives the same order as queuing each step, without an allocation.
    var hasQueuedActions: Bool {
        head < queue.count
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let rc = pthread_key_create(&key) { pointer in
            guard let pointer else { return }
            Unmanaged<TrampolineState>.fromOpaque(pointer).release()
        }
        precondition(rc == 0, "pthread_key_create failed: \(rc)")
        return key
    }()

    static var current: TrampolineState? {
        guard let pointer = pthread_getspecific(key) else { return nil }
        return Unmanaged<TrampolineState>.fromOpaque(pointer).takeUnretainedValue()
    }

    static func currentOrNew() -> TrampolineState {
        if let state = current { return state }
        let state = TrampolineState()
        pthread_setspecific(key, Unmanaged.passRetained(state).toOpaque())
        return state
    }

    func drain() {
        while head < queue.count {
            let item = queue[head]
            head += 1
            item.invoke()
        }
        queue.removeAll(keepingCapacity: true)
        head = 0
    }
}
