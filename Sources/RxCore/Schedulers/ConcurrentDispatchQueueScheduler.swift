import Dispatch
import Foundation

/// Runs work on a dispatch queue that may run several actions at once: background work
/// whose results return to the loop through `observe(on: MainScheduler.instance)`.
public class ConcurrentDispatchQueueScheduler: SchedulerType, @unchecked Sendable {
    // @unchecked: every stored property is immutable and Sendable; the class is not final
    // only so that it keeps RxSwift's shape.

    /// Time intervals, as in RxSwift.
    public typealias TimeInterval = Foundation.TimeInterval
    /// Points in time, as in RxSwift.
    public typealias Time = Date

    /// The current time.
    public var now: Date { Date() }

    let configuration: DispatchQueueConfiguration

    /// A scheduler on `queue` (serial queues work too).
    public init(queue: DispatchQueue, leeway: DispatchTimeInterval = .nanoseconds(0)) {
        configuration = DispatchQueueConfiguration(queue: queue, leeway: leeway)
    }

    /// A scheduler on a new concurrent queue with quality of service `qos`.
    public convenience init(qos: DispatchQoS, leeway: DispatchTimeInterval = .nanoseconds(0)) {
        self.init(
            queue: DispatchQueue(label: "rxswift.queue.\(qos.qosClass)", qos: qos, attributes: .concurrent),
            leeway: leeway
        )
    }

    /// Runs `action` on the queue.
    public final func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        configuration.schedule(state, action: action)
    }

    /// Runs `action` on the queue after `dueTime`.
    public final func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        configuration.scheduleRelative(state, dueTime: dueTime, action: action)
    }

    /// Runs `action` on the queue every `period` (a `DispatchSourceTimer`), first after
    /// `startAfter`; ticks never overlap.
    public func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType) -> Disposable {
        configuration.schedulePeriodic(state, startAfter: startAfter, period: period, action: action)
    }
}
