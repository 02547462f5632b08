extension ImmediateSchedulerType {
    /// Schedules `action` with `state`; the action may call `recurse` with a new state to
    /// schedule itself again. Disposing the result cancels every pending iteration.
    public func scheduleRecursive<State>(_ state: State, action: @escaping (_ state: State, _ recurse: (State) -> Void) -> Void) -> Disposable {
        let recursive = RecursiveImmediateScheduler(action: action, scheduler: self)
        recursive.schedule(state)
        return Disposables.create(with: recursive.dispose)
    }
}

/// Drives ``ImmediateSchedulerType/scheduleRecursive(_:action:)``.
private final class RecursiveImmediateScheduler<State> {
    typealias Action = (_ state: State, _ recurse: (State) -> Void) -> Void

    private let lock = Lock.make()
    private let group = CompositeDisposable()
    private var action: Action?
    private let scheduler: ImmediateSchedulerType

    init(action: @escaping Action, scheduler: ImmediateSchedulerType) {
        self.action = action
        self.scheduler = scheduler
    }

    func schedule(_ state: State) {
        let entry = RecursiveScheduleEntry()
        let disposable = scheduler.schedule(state) { state in
            if self.group.isDisposed { return Disposables.create() }
            let (action, finishedKey) = self.lock.performLocked { () -> (Action?, CompositeDisposable.DisposeKey?) in
                var key: CompositeDisposable.DisposeKey?
                if case .added(let addedKey) = entry.state { key = addedKey }
                entry.state = .done
                return (self.action, key)
            }
            if let finishedKey { self.group.remove(for: finishedKey) }
            action?(state, self.schedule)
            return Disposables.create()
        }
        lock.performLocked {
            switch entry.state {
            case .initial:
                // Still pending: keep it so dispose can cancel it.
                if let key = group.insert(disposable) {
                    entry.state = .added(key)
                } else {
                    entry.state = .done
                }
            case .done:
                // Already ran (synchronously or on another thread): nothing to keep.
                break
            case .added:
                fatalError("RecursiveImmediateScheduler: an iteration was stored twice")
            }
        }
    }

    func dispose() {
        lock.performLocked { action = nil }
        group.dispose()
    }
}
