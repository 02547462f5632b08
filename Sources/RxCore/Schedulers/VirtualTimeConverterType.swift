import Foundation

/// Converts between real time and a virtual clock's units.
public protocol VirtualTimeConverterType {
    /// A point in virtual time.
    associatedtype VirtualTimeUnit
    /// A span of virtual time.
    associatedtype VirtualTimeIntervalUnit

    /// Virtual time to real time.
    func convertFromVirtualTime(_ virtualTime: VirtualTimeUnit) -> RxTime
    /// Real time to virtual time.
    func convertToVirtualTime(_ time: RxTime) -> VirtualTimeUnit
    /// A virtual span to seconds.
    func convertFromVirtualTimeInterval(_ virtualTimeInterval: VirtualTimeIntervalUnit) -> TimeInterval
    /// A span in seconds to a virtual one.
    func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> VirtualTimeIntervalUnit
    /// `time` moved by `offset`.
    func offsetVirtualTime(_ time: VirtualTimeUnit, offset: VirtualTimeIntervalUnit) -> VirtualTimeUnit
    /// Orders two virtual times.
    func compareVirtualTime(_ lhs: VirtualTimeUnit, _ rhs: VirtualTimeUnit) -> VirtualTimeComparison
}

/// The order of two virtual times.
public enum VirtualTimeComparison: Sendable {
    /// The left time is earlier.
    case lessThan
    /// Both are the same.
    case equal
    /// The left time is later.
    case greaterThan
}

extension VirtualTimeComparison {
    var lessThan: Bool { self == .lessThan }
    var greaterThan: Bool { self == .greaterThan }
    var equal: Bool { self == .equal }
}
