/// One point of a ``ChartSeries``: where it is along the x axis — a number (a time, a
/// sample number) or, for bars, a category label — and its value.
///
/// ```swift
/// ChartPoint(x: 12, y: 0.42)        // a line or scatter point
/// ChartPoint(x: "Mon", y: 7)        // a bar in the "Mon" category
/// ```
///
/// On the wire (PROTOCOL.md, "Charts") a point is a row `{"id":…,"series":…,"x":…,"y":…}`;
/// a `y` that is not finite is sent as `null` and drawn as a gap.
public struct ChartPoint: Hashable, Sendable {
    /// A position along the x axis.
    public enum X: Hashable, Sendable, CustomStringConvertible {
        /// A number: the axis is numeric (a time in seconds, a sample number, …).
        case number(Double)
        /// A category: the axis lists the labels in the order they first appear.
        case label(String)

        /// The number, or the label.
        public var description: String {
            switch self {
            case .number(let value): return ChartPoint.shortString(value)
            case .label(let label): return label
            }
        }
    }

    /// Where the point is along the x axis.
    public var x: X
    /// The point's value.
    public var y: Double

    /// A point at `x` with value `y`.
    public init(x: X, y: Double) {
        self.x = x
        self.y = y
    }

    /// A point at the number `x` with value `y`.
    public init(x: Double, y: Double) {
        self.init(x: .number(x), y: y)
    }

    /// A point in the category `x` (a bar's label) with value `y`.
    public init(x: String, y: Double) {
        self.init(x: .label(x), y: y)
    }

    /// `12` for 12.0, `0.5` for 0.5: the form the wire writes, so keys read like values.
    static func shortString(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 9.007_199_254_740_992e15 {
            return String(Int64(value))
        }
        return value.description
    }
}
