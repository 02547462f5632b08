import Foundation
import RxCore

/// A chart of line, bar and scatter series with a title, axis titles and a legend — not
/// a UIKit view, but what a dashboard needs: bind whole series with `rx.series`, or
/// stream points with `rx.append(to:)` (a series' ``ChartSeries/maxPoints`` makes it a
/// sliding window).
///
/// On the wire (PROTOCOL.md, "Charts") the chart is its `series` and its `points` —
/// every point of every series in one keyed list, each point naming its series, keyed by
/// its series and x — so appending a point is one keyed `insert` (and, past the window,
/// one `remove`) whatever the chart's size, and re-binding series that share most points
/// sends only the difference. The browser draws it as SVG, with a data table for
/// assistive technologies.
///
/// Loop-confined, like every widget.
open class ChartView: View {
    /// How tick labels are written.
    public enum TickFormat: Hashable, Sendable {
        /// Short numbers: `0.25`, `12`, `1.5k`, `2M`.
        case automatic
        /// Whole numbers.
        case integer
        /// `places` decimal places.
        case decimal(places: Int)
        /// Fractions as percentages: 0.42 → `42%`.
        case percent
        /// Seconds since 1970 as the browser's local time of day (`14:05:30`).
        case time

        /// The wire form: `auto`, `integer`, `decimal:2`, `percent`, `time`.
        public var wireName: String {
            switch self {
            case .automatic: return "auto"
            case .integer: return "integer"
            case .decimal(let places): return "decimal:\(max(0, places))"
            case .percent: return "percent"
            case .time: return "time"
            }
        }
    }

    /// The chart's heading; `nil` (the default) for none.
    public var title: String? {
        didSet {
            if title != oldValue { changed(PropertyName.title, WidgetValue(oldValue), WidgetValue(title)) }
        }
    }

    /// The x axis' title; `nil` (the default) for none.
    public var xAxisTitle: String? {
        didSet {
            if xAxisTitle != oldValue { changed(ChartPropertyName.xAxisTitle, WidgetValue(oldValue), WidgetValue(xAxisTitle)) }
        }
    }

    /// The y axis' title; `nil` (the default) for none.
    public var yAxisTitle: String? {
        didSet {
            if yAxisTitle != oldValue { changed(ChartPropertyName.yAxisTitle, WidgetValue(oldValue), WidgetValue(yAxisTitle)) }
        }
    }

    /// The y axis' fixed range; `nil` (the default): fitted to the points (and 0, when
    /// there are bars), rounded out to tidy ticks.
    public var yRange: ClosedRange<Double>? {
        didSet {
            guard yRange != oldValue else { return }
            if yRange?.lowerBound != oldValue?.lowerBound {
                changed(ChartPropertyName.yMin, Self.bound(oldValue?.lowerBound), Self.bound(yRange?.lowerBound))
            }
            if yRange?.upperBound != oldValue?.upperBound {
                changed(ChartPropertyName.yMax, Self.bound(oldValue?.upperBound), Self.bound(yRange?.upperBound))
            }
        }
    }

    /// How the x axis' ticks read. Default ``TickFormat/automatic``.
    public var xTickFormat: TickFormat = .automatic {
        didSet {
            if xTickFormat != oldValue {
                changed(ChartPropertyName.xTickFormat, .string(oldValue.wireName), .string(xTickFormat.wireName))
            }
        }
    }

    /// How the y axis' ticks (and the data table's values) read. Default ``TickFormat/automatic``.
    public var yTickFormat: TickFormat = .automatic {
        didSet {
            if yTickFormat != oldValue {
                changed(ChartPropertyName.yTickFormat, .string(oldValue.wireName), .string(yTickFormat.wireName))
            }
        }
    }

    /// Whether the legend shows. Default `true`.
    public var showsLegend: Bool = true {
        didSet {
            if showsLegend != oldValue { changed(ChartPropertyName.showsLegend, .bool(oldValue), .bool(showsLegend)) }
        }
    }

    /// The series with their current points (a streaming series holds its window).
    public private(set) var series: [ChartSeries] = []

    /// The series as the client sees them (the `series` property).
    public private(set) var seriesRows: [ListRow] = []
    /// Every point as the client sees it, series after series (the `points` property).
    public private(set) var pointRows: [ListRow] = []
    /// The keys in ``pointRows``, for new points' keys.
    private var usedKeys: Set<String> = []

    /// An empty chart.
    public override init(frame: CGRect) {
        super.init(frame: frame)
    }

    /// UIKit's archive initializer: Bindery has no archives, so this is the plain view.
    public required convenience init?(coder: NSCoder) {
        self.init(frame: .zero)
    }

    override public var kind: String { "chartView" }

    // MARK: - Series and points

    /// Replaces every series and its points (what `rx.series` does). Points keep their
    /// keys (series and x), so the client is sent only what changed. A series past its
    /// ``ChartSeries/maxPoints`` keeps its last points. A repeated series id is reported
    /// to `Hooks.bindingErrorHandler` and its later series dropped.
    public func setSeries(_ newSeries: [ChartSeries]) {
        var seen = Set<String>()
        var kept: [ChartSeries] = []
        kept.reserveCapacity(newSeries.count)
        for var entry in newSeries {
            guard seen.insert(entry.id).inserted else {
                Hooks.bindingErrorHandler(ChartViewError.duplicateSeries(chartID: id, seriesID: entry.id))
                continue
            }
            if let limit = entry.maxPoints, entry.points.count > limit {
                entry.points.removeFirst(entry.points.count - limit)
            }
            kept.append(entry)
        }
        let oldSeriesRows = seriesRows
        let oldPointRows = pointRows
        series = kept
        seriesRows = kept.map(Self.row(for:))
        usedKeys = []
        var rows: [ListRow] = []
        rows.reserveCapacity(kept.reduce(0) { $0 + $1.points.count })
        for entry in kept {
            for point in entry.points { rows.append(makeRow(point, seriesID: entry.id)) }
        }
        pointRows = rows
        if seriesRows != oldSeriesRows {
            changed(ChartPropertyName.series, .rows(oldSeriesRows), .rows(seriesRows))
        }
        if pointRows != oldPointRows {
            changed(ChartPropertyName.points, .rows(oldPointRows), .rows(pointRows))
        }
    }

    /// Appends `point` to the series `seriesID`; past the series' ``ChartSeries/maxPoints``
    /// its oldest points go. An unknown series is reported to `Hooks.bindingErrorHandler`.
    public func append(_ point: ChartPoint, to seriesID: String) {
        append(contentsOf: [point], to: seriesID)
    }

    /// Appends `points`, in order, to the series `seriesID` (see ``append(_:to:)``).
    public func append(contentsOf points: [ChartPoint], to seriesID: String) {
        guard let index = series.firstIndex(where: { $0.id == seriesID }) else {
            Hooks.bindingErrorHandler(ChartViewError.unknownSeries(chartID: id, seriesID: seriesID))
            return
        }
        guard !points.isEmpty else { return }
        let oldPointRows = pointRows
        let start = series[..<index].reduce(0) { $0 + $1.points.count }
        var added = points[...]
        // The window: drop the oldest first, so a new point may reuse a dropped key.
        if let limit = series[index].maxPoints {
            if added.count > limit { added = added.suffix(limit) }
            let drop = series[index].points.count + added.count - limit
            if drop > 0 {
                series[index].points.removeFirst(drop)
                for row in pointRows[start..<(start + drop)] { usedKeys.remove(row.id) }
                pointRows.removeSubrange(start..<(start + drop))
            }
        }
        let end = start + series[index].points.count
        series[index].points.append(contentsOf: added)
        pointRows.insert(contentsOf: added.map { makeRow($0, seriesID: seriesID) }, at: end)
        changed(ChartPropertyName.points, .rows(oldPointRows), .rows(pointRows))
    }

    /// Replaces the points of the series `seriesID` (kept to its window); the client is
    /// sent the difference (a window that slid by one point: one removal, one insert).
    public func setPoints(_ points: [ChartPoint], ofSeries seriesID: String) {
        guard let index = series.firstIndex(where: { $0.id == seriesID }) else {
            Hooks.bindingErrorHandler(ChartViewError.unknownSeries(chartID: id, seriesID: seriesID))
            return
        }
        var updated = series
        updated[index].points = points
        setSeries(updated)
    }

    /// The wire row of a new point, under a key unused in the chart: `<series>/<x>`, with
    /// `#2`, `#3`, … for a repeated x.
    private func makeRow(_ point: ChartPoint, seriesID: String) -> ListRow {
        let base = "\(seriesID)/\(point.x)"
        var key = base
        var occurrence = 1
        while !usedKeys.insert(key).inserted {
            occurrence += 1
            key = "\(base)#\(occurrence)"
        }
        let x: WidgetValue
        switch point.x {
        case .number(let value): x = .number(value)
        case .label(let label): x = .string(label)
        }
        return ListRow(id: key, fields: ["series": .string(seriesID), "x": x, "y": .number(point.y)])
    }

    private static func row(for series: ChartSeries) -> ListRow {
        var fields: [String: WidgetValue] = ["title": .string(series.title), "kind": .string(series.kind.rawValue)]
        if let color = series.color { fields["color"] = .color(color) }
        return ListRow(id: series.id, fields: fields)
    }

    private static func bound(_ value: Double?) -> WidgetValue {
        value.map(WidgetValue.number) ?? .null
    }

    // MARK: - Snapshot

    override func collectProperties(into properties: inout [String: WidgetValue]) {
        super.collectProperties(into: &properties)
        properties[PropertyName.title] = WidgetValue(title)
        properties[ChartPropertyName.xAxisTitle] = WidgetValue(xAxisTitle)
        properties[ChartPropertyName.yAxisTitle] = WidgetValue(yAxisTitle)
        properties[ChartPropertyName.yMin] = Self.bound(yRange?.lowerBound)
        properties[ChartPropertyName.yMax] = Self.bound(yRange?.upperBound)
        properties[ChartPropertyName.xTickFormat] = .string(xTickFormat.wireName)
        properties[ChartPropertyName.yTickFormat] = .string(yTickFormat.wireName)
        properties[ChartPropertyName.showsLegend] = .bool(showsLegend)
        properties[ChartPropertyName.series] = .rows(seriesRows)
        properties[ChartPropertyName.points] = .rows(pointRows)
    }
}

/// The chart's property names (PROTOCOL.md, "Charts").
enum ChartPropertyName {
    static let xAxisTitle = "xAxisTitle"
    static let yAxisTitle = "yAxisTitle"
    static let yMin = "yMin"
    static let yMax = "yMax"
    static let xTickFormat = "xTickFormat"
    static let yTickFormat = "yTickFormat"
    static let showsLegend = "showsLegend"
    static let series = "series"
    static let points = "points"
}

/// A mistake in feeding a ``ChartView``, reported to `Hooks.bindingErrorHandler` (the
/// chart keeps what it had).
public enum ChartViewError: Error, Equatable, CustomStringConvertible {
    /// Points for a series the chart does not have.
    case unknownSeries(chartID: String, seriesID: String)
    /// Two series with one id in `setSeries` (the later one is dropped).
    case duplicateSeries(chartID: String, seriesID: String)

    /// A readable message.
    public var description: String {
        switch self {
        case .unknownSeries(let chartID, let seriesID):
            return "chart '\(chartID)' has no series '\(seriesID)'"
        case .duplicateSeries(let chartID, let seriesID):
            return "chart '\(chartID)': series id '\(seriesID)' is used twice; the later series is dropped"
        }
    }
}
