/// One series of a ``ChartView``: a named, coloured run of points drawn as a line, bars
/// or dots.
///
/// ```swift
/// ChartSeries(id: "cpu", title: "CPU", kind: .line, points: samples, maxPoints: 60)
/// ChartSeries(id: "votes", title: "Votes", kind: .bar,
///             points: [ChartPoint(x: "Red", y: 3), ChartPoint(x: "Blue", y: 5)])
/// ```
public struct ChartSeries: Hashable, Sendable, Identifiable {
    /// How a series is drawn.
    public enum Kind: String, Hashable, Sendable {
        /// Points joined by a line, in order (a time series).
        case line
        /// One bar per category (series of bars side by side in each category).
        case bar
        /// A dot per point.
        case scatter
    }

    /// The series' key, unique in its chart (`rx.append(to:)` names it).
    public var id: String
    /// What the legend and the data table call it.
    public var title: String
    /// How it is drawn.
    public var kind: Kind
    /// Its colour; `nil` (the default): the theme's palette, by the series' position.
    public var color: Color?
    /// The points, in order.
    public var points: [ChartPoint]
    /// The window of a streaming series: appending past it drops the oldest points
    /// (each a keyed removal on the wire). `nil` (the default): no limit.
    public var maxPoints: Int?

    /// A series keyed `id`, titled `title` (the id when `nil`).
    public init(id: String, title: String? = nil, kind: Kind = .line, color: Color? = nil,
                points: [ChartPoint] = [], maxPoints: Int? = nil) {
        self.id = id
        self.title = title ?? id
        self.kind = kind
        self.color = color
        self.points = points
        self.maxPoints = maxPoints.map { max(0, $0) }
    }
}
