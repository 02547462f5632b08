import Dispatch
import Foundation

/// The queue and timer leeway shared by the dispatch-queue schedulers, and the three ways
/// they run work on that queue.
///
/// Actions are not `Sendable` (they close over sinks), so each one crosses to the queue
/// inside `UncheckedSendable`: the scheduler, not the type system, guarantees that an
/// action runs once, on the queue, and is not touched by the scheduling thread afterwards.
struct DispatchQueueConfiguration: Sendable {
    let queue: DispatchQueue
    let leeway: DispatchTimeInterval

    func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let cancel = SingleAssignmentDisposable()
        let work = UncheckedSendable((state, action))
        queue.async {
            // Disposed before it ran: skip it.
            if cancel.isDisposed { return }
            cancel.setDisposable(work.value.1(work.value.0))
        }
        return cancel
    }

    func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        // `.never` never fires; no timer is needed for that.
        guard dueTime.nanosecondsValue != nil else { return Disposables.create() }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + dueTime, leeway: leeway)
        let scheduled = DispatchTimerDisposable(timer)
        let work = UncheckedSendable((state, action))
        timer.setEventHandler {
            scheduled.fireOnce { work.value.1(work.value.0) }
        }
        timer.resume()
        return scheduled
    }

    func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType) -> Disposable {
        guard startAfter.nanosecondsValue != nil else { return Disposables.create() }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + startAfter, repeating: period, leeway: leeway)
        let scheduled = DispatchTimerDisposable(timer)
        // A source's handler never runs concurrently with itself, even on a concurrent
        // queue, so the state box is only touched by one tick at a time.
        let box = UncheckedSendable(PeriodicState(state: state, action: action))
        timer.setEventHandler {
            scheduled.fireRepeating { box.value.tick() }
        }
        timer.resume()
        return scheduled
    }
}

/// The state of a periodic action, threaded from one tick to the next.
private final class PeriodicState<State> {
    private var state: State
    private let action: (State) -> State

    init(state: State, action: @escaping (State) -> State) {
        self.state = state
        self.action = action
    }

    func tick() {
        state = action(state)
    }
}

/// Owns a dispatch timer until it fires (one-shot) or is disposed, and the disposable
/// returned by a one-shot action.
///
/// The timer's handler retains this object and this object retains the timer: the cycle
/// keeps an unreferenced timer alive until its deadline, and is broken by dropping the
/// timer once it fired or was cancelled.
final class DispatchTimerDisposable: Cancelable, @unchecked Sendable {
    private let lock = Lock.make()
    private var timer: DispatchSourceTimer?
    private var actionDisposable: Disposable?
    private var disposed = false

    init(_ timer: DispatchSourceTimer) {
        self.timer = timer
    }

    var isDisposed: Bool {
        lock.performLocked { disposed }
    }

    /// Runs `action` unless disposed, then releases the timer; keeps what `action`
    /// returned so disposing this disposes it.
    func fireOnce(_ action: () -> Disposable) {
        let timer: DispatchSourceTimer? = lock.performLocked {
            if disposed { return nil }
            let current = self.timer
            self.timer = nil
            return current
        }
        guard let timer else { return }
        timer.cancel()
        let result = action()
        let rejected: Disposable? = lock.performLocked {
            if disposed { return result }
            actionDisposable = result
            return nil
        }
        rejected?.dispose()
    }

    /// Runs `action` unless disposed; the timer keeps running.
    func fireRepeating(_ action: () -> Void) {
        if isDisposed { return }
        action()
    }

    /// Cancels the timer (an action already running finishes) and disposes the result of
    /// a one-shot action that already ran.
    func dispose() {
        let (timer, result): (DispatchSourceTimer?, Disposable?) = lock.performLocked {
            if disposed { return (nil, nil) }
            disposed = true
            let current = (self.timer, actionDisposable)
            self.timer = nil
            actionDisposable = nil
            return current
        }
        timer?.cancel()
        result?.dispose()
    }
}
