import Foundation

/// A virtual-time scheduler whose clock is a `Date`.
public final class HistoricalScheduler: VirtualTimeScheduler<HistoricalSchedulerTimeConverter> {
    /// A scheduler whose clock starts at `initialClock`.
    public init(initialClock: RxTime = Date(timeIntervalSince1970: 0)) {
        super.init(initialClock: initialClock, converter: HistoricalSchedulerTimeConverter())
    }
}

/// Virtual time as `Date`, spans as seconds.
public struct HistoricalSchedulerTimeConverter: VirtualTimeConverterType, Sendable {
    /// A point in time.
    public typealias VirtualTimeUnit = RxTime
    /// A span in seconds.
    public typealias VirtualTimeIntervalUnit = TimeInterval

    /// The identity.
    public func convertFromVirtualTime(_ virtualTime: RxTime) -> RxTime { virtualTime }
    /// The identity.
    public func convertToVirtualTime(_ time: RxTime) -> RxTime { time }
    /// The identity.
    public func convertFromVirtualTimeInterval(_ virtualTimeInterval: TimeInterval) -> TimeInterval { virtualTimeInterval }
    /// The identity.
    public func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> TimeInterval { timeInterval }
    /// `time + offset`.
    public func offsetVirtualTime(_ time: RxTime, offset: TimeInterval) -> RxTime { time.addingTimeInterval(offset) }
    /// Orders two dates.
    public func compareVirtualTime(_ lhs: RxTime, _ rhs: RxTime) -> VirtualTimeComparison {
        switch lhs.compare(rhs) {
        case .orderedAscending: return .lessThan
        case .orderedSame: return .equal
        case .orderedDescending: return .greaterThan
        }
    }
}
