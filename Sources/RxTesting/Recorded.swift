import RxCore

/// A value with the virtual time it was recorded at.
public struct Recorded<Value>: CustomDebugStringConvertible {
    /// When it happened.
    public let time: TestTime
    /// What happened.
    public let value: Value

    /// A recorded value.
    public init(time: TestTime, value: Value) {
        self.time = time
        self.value = value
    }

    /// `value @ time`.
    public var debugDescription: String {
        "\(value) @ \(time)"
    }
}

/// Equal when recorded at the same time with equal values (events compare as in
/// `Event+Equatable.swift`).
extension Recorded: Equatable where Value: Equatable {}
