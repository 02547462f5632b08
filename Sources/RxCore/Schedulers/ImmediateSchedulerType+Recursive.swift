import Synchronization

extension ImmediateSchedulerType {
    /// Schedules `action` with `state`; the action calls `recurse` with the next state to
    /// be scheduled again. Disposing the result cancels every step not yet run.
    ///
    /// On ``CurrentThreadScheduler`` a step whose successor would be the next item in the
    /// trampoline anyway runs that successor in place: the order of events is the one
    /// queuing gives (other queued work still interleaves step by step), without an
    /// allocation or a queue round trip per step.
    public func scheduleRecursive<State>(
        _ state: State,
        action: @escaping (_ state: State, _ recurse: (State) -> Void) -> Void
    ) -> Disposable {
        if self is CurrentThreadScheduler {
            let recursion = TrampolineRecursion(action: action)
            recursion.schedule(state)
            return recursion
        }
        let recursion = RecursiveImmediateScheduler(action: action, scheduler: self)
        recursion.schedule(state)
        return Disposables.create(with: recursion.dispose)
    }
}

/// Recursive scheduling on any scheduler: each step is an ordinary scheduled action,
/// kept in `group` until it runs so that dispose can cancel it.
private final class RecursiveImmediateScheduler<State>: @unchecked Sendable {
    typealias Action = (State, (State) -> Void) -> Void

    /// Where one scheduled step is in its life; guarded by `lock`.
    private final class Step {
        var key: CompositeDisposable.DisposeKey?
        var ran = false
    }

    private let lock = Lock.make()
    private let group = CompositeDisposable()
    private var action: Action?
    private let scheduler: ImmediateSchedulerType

    init(action: @escaping Action, scheduler: ImmediateSchedulerType) {
        self.action = action
        self.scheduler = scheduler
    }

    func schedule(_ state: State) {
        let step = Step()
        let disposable = scheduler.schedule(state) { [self] state in
            if group.isDisposed { return Disposables.create() }
            let (action, key) = lock.performLocked { () -> (Action?, CompositeDisposable.DisposeKey?) in
                step.ran = true
                defer { step.key = nil }
                return (self.action, step.key)
            }
            // The step is running: it no longer needs cancelling, and the group must not
            // grow by one entry per step.
            if let key { group.remove(for: key) }
            action?(state, schedule)
            return Disposables.create()
        }
        lock.performLocked {
            // A scheduler that ran the step synchronously leaves nothing to cancel.
            if step.ran { return }
            step.key = group.insert(disposable)
        }
    }

    func dispose() {
        lock.performLocked { action = nil }
        group.dispose()
    }
}

/// Recursive scheduling on the current-thread trampoline.
///
/// RxSwift queues every step. Here a step's successor runs in place when the trampoline
/// has nothing else queued, since it would be the next item to run anyway; otherwise it
/// is queued behind the waiting work, so interleaving with other sequences is unchanged.
/// Everything runs on the subscribing thread; only `dispose` may come from another.
private final class TrampolineRecursion<State>: Disposable, @unchecked Sendable {
    typealias Action = (State, (State) -> Void) -> Void

    private let action: Action
    private let disposed = Atomic<Bool>(false)

    init(action: @escaping Action) {
        self.action = action
    }

    func schedule(_ state: State) {
        // A queued step that finds the recursion disposed does nothing, which is what
        // cancelling it would do.
        _ = CurrentThreadScheduler.instance.schedule(state) { [self] state in
            run(state)
            return Disposables.create()
        }
    }

    private func run(_ state: State) {
        // `current` doubles as the slot for the state passed to `recurse`, with `pending`
        // saying it holds one: no `Optional<State>` per step, which in unspecialised code
        // would cost a metadata look-up each time.
        var current = state
        var pending = false
        var fannedOut = false
        // Looked up once: every step of this run happens on this thread's trampoline.
        let trampoline = TrampolineState.current
        while !disposed.load(ordering: .acquiring) {
            pending = false
            fannedOut = false
            action(current) { newState in
                if !pending && !fannedOut {
                    current = newState
                    pending = true
                    return
                }
                // Several recursions from one step: queue them all, in call order.
                if pending {
                    pending = false
                    schedule(current)
                }
                fannedOut = true
                schedule(newState)
            }
            guard pending else { return }
            if trampoline?.hasQueuedActions ?? false {
                schedule(current)
                return
            }
        }
    }

    func dispose() {
        disposed.store(true, ordering: .releasing)
    }
}
