extension SchedulerType {
    /// Schedules `action` with `state` after `dueTime`; the action may reschedule itself
    /// through the ``AnyRecursiveScheduler`` it receives. Disposing the result cancels every
    /// pending iteration. (Internal, as in RxSwift: operators such as `delay` use it.)
    func scheduleRecursive<State>(_ state: State, dueTime: RxTimeInterval, action: @escaping (State, AnyRecursiveScheduler<State>) -> Void) -> Disposable {
        let recursive = AnyRecursiveScheduler(scheduler: self, action: action)
        recursive.schedule(state, dueTime: dueTime)
        return Disposables.create(with: recursive.dispose)
    }
}

/// The handle a recursive action uses to schedule its next iteration, at once or after a
/// delay.
final class AnyRecursiveScheduler<State> {
    typealias Action = (State, AnyRecursiveScheduler<State>) -> Void

    private let lock = Lock.make()
    private let group = CompositeDisposable()
    private var action: Action?
    private let scheduler: SchedulerType

    init(scheduler: SchedulerType, action: @escaping Action) {
        self.action = action
        self.scheduler = scheduler
    }

    /// Schedules the next iteration after `dueTime`.
    func schedule(_ state: State, dueTime: RxTimeInterval) {
        let entry = RecursiveScheduleEntry()
        let disposable = scheduler.scheduleRelative(state, dueTime: dueTime) { state in
            self.run(state, entry: entry)
        }
        store(disposable, entry: entry)
    }

    /// Schedules the next iteration as soon as the scheduler can.
    func schedule(_ state: State) {
        let entry = RecursiveScheduleEntry()
        let disposable = scheduler.schedule(state) { state in
            self.run(state, entry: entry)
        }
        store(disposable, entry: entry)
    }

    func dispose() {
        lock.performLocked { action = nil }
        group.dispose()
    }

    private func run(_ state: State, entry: RecursiveScheduleEntry) -> Disposable {
        if group.isDisposed { return Disposables.create() }
        let (action, finishedKey) = lock.performLocked { () -> (Action?, CompositeDisposable.DisposeKey?) in
            var key: CompositeDisposable.DisposeKey?
            if case .added(let addedKey) = entry.state { key = addedKey }
            entry.state = .done
            return (self.action, key)
        }
        if let finishedKey { group.remove(for: finishedKey) }
        action?(state, self)
        return Disposables.create()
    }

    private func store(_ disposable: Disposable, entry: RecursiveScheduleEntry) {
        lock.performLocked {
            switch entry.state {
            case .initial:
                if let key = group.insert(disposable) {
                    entry.state = .added(key)
                } else {
                    entry.state = .done
                }
            case .done:
                break
            case .added:
                fatalError("AnyRecursiveScheduler: an iteration was stored twice")
            }
        }
    }
}

/// Where one scheduled iteration is in its life: its disposable is kept in the group only
/// while it is pending, so a long recursion does not accumulate finished disposables.
enum RecursiveScheduleState {
    /// Scheduled, its disposable not yet stored.
    case initial
    /// Pending, its disposable stored under this key.
    case added(CompositeDisposable.DisposeKey)
    /// Ran (or found the group disposed).
    case done
}

/// One iteration's state, shared by the scheduling call and the action (which may run
/// first, synchronously, or concurrently on another thread); guarded by the owner's lock.
final class RecursiveScheduleEntry {
    var state = RecursiveScheduleState.initial
}
