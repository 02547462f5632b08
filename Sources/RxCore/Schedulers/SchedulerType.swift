import Dispatch
import Foundation

/// A span of time for schedulers, as in RxSwift.
public typealias RxTimeInterval = DispatchTimeInterval

/// A point in time for schedulers, as in RxSwift.
public typealias RxTime = Date

/// Runs units of work immediately or soon, in order.
public protocol ImmediateSchedulerType {
    /// Schedules `action` to run with `state`.
    ///
    /// - Returns: a disposable that cancels the action if it has not run yet, and
    ///   disposes what it returned if it has.
    func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable
}

/// A scheduler that also knows time and can run work after a delay.
public protocol SchedulerType: ImmediateSchedulerType {
    /// The scheduler's current time.
    var now: RxTime { get }

    /// Schedules `action` to run with `state` after `dueTime`.
    func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable

    /// Schedules `action` to run every `period`, first after `startAfter`, threading its
    /// state through each run.
    func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType) -> Disposable
}

extension SchedulerType {
    /// Periodic scheduling by rescheduling after each run; schedulers with a native timer
    /// override it.
    public func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType) -> Disposable {
        let timer = PeriodicTimer(scheduler: self, state: state, period: period, action: action)
        timer.disposable.disposable = scheduleRelative(timer, dueTime: startAfter) { $0.tick() }
        return timer.disposable
    }
}

/// Loop-free periodic timer built on `scheduleRelative`. Runs only on its scheduler.
private final class PeriodicTimer<Scheduler: SchedulerType, State> {
    let disposable = SerialDisposable()
    private let scheduler: Scheduler
    private var state: State
    private let period: RxTimeInterval
    private let action: (State) -> State

    init(scheduler: Scheduler, state: State, period: RxTimeInterval, action: @escaping (State) -> State) {
        self.scheduler = scheduler
        self.state = state
        self.period = period
        self.action = action
    }

    func tick() -> Disposable {
        if disposable.isDisposed { return Disposables.create() }
        state = action(state)
        disposable.disposable = scheduler.scheduleRelative(self, dueTime: period) { $0.tick() }
        return Disposables.create()
    }
}

extension DispatchTimeInterval {
    /// Nanoseconds in this interval; `nil` for `.never`.
    var nanosecondsValue: Int64? {
        switch self {
        case .seconds(let value): return Int64(value) * 1_000_000_000
        case .milliseconds(let value): return Int64(value) * 1_000_000
        case .microseconds(let value): return Int64(value) * 1_000
        case .nanoseconds(let value): return Int64(value)
        case .never: return nil
        @unknown default: return nil
        }
    }

    /// This interval in seconds; `.infinity` for `.never`.
    var timeIntervalValue: TimeInterval {
        guard let nanoseconds = nanosecondsValue else { return .infinity }
        return TimeInterval(nanoseconds) / 1_000_000_000
    }

    /// The interval from `earlier` to `later`, subtracted from this interval, floored at zero.
    func reduced(from earlier: RxTime, to later: RxTime) -> DispatchTimeInterval {
        guard let nanoseconds = nanosecondsValue else { return .never }
        let elapsed = Int64(later.timeIntervalSince(earlier) * 1_000_000_000)
        return .nanoseconds(Int(max(0, nanoseconds - elapsed)))
    }

    /// `true` when the interval is zero or less.
    var isNow: Bool {
        (nanosecondsValue ?? 1) <= 0
    }
}

extension Date {
    /// This date advanced by `interval`.
    func adding(_ interval: RxTimeInterval) -> Date {
        addingTimeInterval(interval.timeIntervalValue)
    }
}
