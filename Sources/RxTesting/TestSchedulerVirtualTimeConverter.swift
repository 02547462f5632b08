import Foundation
import RxCore

/// Ticks of `resolution` seconds.
public struct TestSchedulerVirtualTimeConverter: VirtualTimeConverterType, Sendable {
    /// A point in virtual time.
    public typealias VirtualTimeUnit = Int
    /// A span of virtual time.
    public typealias VirtualTimeIntervalUnit = Int

    private let resolution: Double

    init(resolution: Double) {
        self.resolution = resolution
    }

    /// Ticks since the epoch to a date.
    public func convertFromVirtualTime(_ virtualTime: Int) -> RxTime {
        Date(timeIntervalSince1970: Double(virtualTime) * resolution)
    }

    /// A date to ticks since the epoch, rounded.
    public func convertToVirtualTime(_ time: RxTime) -> Int {
        Int(time.timeIntervalSince1970 / resolution + 0.5)
    }

    /// Ticks to seconds.
    public func convertFromVirtualTimeInterval(_ virtualTimeInterval: Int) -> TimeInterval {
        Double(virtualTimeInterval) * resolution
    }

    /// Seconds to ticks, rounded.
    public func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> Int {
        Int(timeInterval / resolution + 0.5)
    }

    /// `time + offset`.
    public func offsetVirtualTime(_ time: Int, offset: Int) -> Int {
        time + offset
    }

    /// Orders two tick counts.
    public func compareVirtualTime(_ lhs: Int, _ rhs: Int) -> VirtualTimeComparison {
        lhs < rhs ? .lessThan : (lhs == rhs ? .equal : .greaterThan)
    }
}
