import RxCore

extension Reactive where Base: ChartView {
    /// Replaces every series with each element (``ChartView/setSeries(_:)``): points that
    /// stay keep their keys, so the client gets only the difference.
    public var series: Binder<[ChartSeries]> {
        Binder(base) { chart, series in
            chart.setSeries(series)
        }
    }

    /// Appends each point to the series `seriesID` — a live chart: each point is one
    /// keyed insert on the wire, and past the series' ``ChartSeries/maxPoints`` the
    /// oldest point goes as one keyed removal.
    ///
    /// ```swift
    /// Observable<Int>.interval(.milliseconds(500), scheduler: scheduler)
    ///     .map { ChartPoint(x: Double($0), y: sample()) }
    ///     .bind(to: chart.rx.append(to: "cpu"))
    /// ```
    public func append(to seriesID: String) -> Binder<ChartPoint> {
        Binder(base) { chart, point in
            chart.append(point, to: seriesID)
        }
    }

    /// Replaces the points of the series `seriesID` with each element
    /// (``ChartView/setPoints(_:ofSeries:)``); a window that slid by one point is sent as
    /// one removal and one insert.
    public func points(series seriesID: String) -> Binder<[ChartPoint]> {
        Binder(base) { chart, points in
            chart.setPoints(points, ofSeries: seriesID)
        }
    }

    /// The chart's heading.
    public var title: Binder<String?> {
        Binder(base) { chart, title in
            chart.title = title
        }
    }

    /// The y axis' fixed range (`nil`: fitted to the points).
    public var yRange: Binder<ClosedRange<Double>?> {
        Binder(base) { chart, range in
            chart.yRange = range
        }
    }
}
