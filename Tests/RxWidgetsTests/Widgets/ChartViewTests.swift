import Foundation
import RxCore
import RxTesting
import RxWidgets
import XCTest

final class ChartViewTests: XCTestCase {
    private func chart(_ series: [ChartSeries]) -> (ChartView, WidgetTree) {
        let chart = ChartView()
        let tree = widgetTestTree(["chart": chart])
        chart.setSeries(series)
        _ = tree.takeChanges()
        return (chart, tree)
    }

    private func keys(_ chart: ChartView) -> [String] { chart.pointRows.map(\.id) }

    /// The keyed ops the batch's `points` change amounts to (what the server sends).
    private func pointOps(_ tree: WidgetTree, file: StaticString = #filePath, line: UInt = #line) -> [ListChange]? {
        let changes = tree.takeChanges().filter { $0.property == "points" }
        guard changes.count == 1, case .rows(let old) = changes[0].oldValue, case .rows(let new) = changes[0].value else {
            XCTFail("expected one points change, got \(changes)", file: file, line: line)
            return nil
        }
        let ops = ListRow.changesWithFewestMoves(from: old, to: new)
        XCTAssertEqual(ops.map { ListRow.applying($0, to: old) }, new, "the ops rebuild the points", file: file, line: line)
        return ops
    }

    private func cpu(_ values: [Double], maxPoints: Int? = nil) -> ChartSeries {
        ChartSeries(id: "cpu", title: "CPU", points: values.enumerated().map { ChartPoint(x: Double($0.offset), y: $0.element) },
                    maxPoints: maxPoints)
    }

    // MARK: - The model

    func testPointsAndSeriesHaveReadableDefaults() {
        let series = ChartSeries(id: "votes")
        XCTAssertEqual(series.title, "votes", "the title defaults to the id")
        XCTAssertEqual(series.kind, .line)
        XCTAssertNil(series.color)
        XCTAssertNil(series.maxPoints)
        XCTAssertEqual(ChartPoint(x: 2, y: 1).x, .number(2))
        XCTAssertEqual(ChartPoint(x: "Mon", y: 1).x, .label("Mon"))
        XCTAssertEqual(ChartPoint.X.number(12).description, "12")
        XCTAssertEqual(ChartPoint.X.number(0.5).description, "0.5")
        XCTAssertEqual(ChartSeries(id: "a", maxPoints: -3).maxPoints, 0)
    }

    func testSnapshotCarriesSeriesPointsAxesAndLegend() {
        let chart = ChartView()
        chart.title = "Load"
        chart.xAxisTitle = "Time"
        chart.yAxisTitle = "CPU"
        chart.yRange = 0...1
        chart.xTickFormat = .time
        chart.yTickFormat = .percent
        let red = Color(red: 1, green: 0, blue: 0, alpha: 1)
        chart.setSeries([ChartSeries(id: "cpu", title: "CPU", kind: .line, color: red, points: [ChartPoint(x: 1, y: 0.5)]),
                         ChartSeries(id: "n", kind: .bar, points: [ChartPoint(x: "Mon", y: 3)])])
        let snapshot = chart.snapshot()
        XCTAssertEqual(chart.kind, "chartView")
        XCTAssertEqual(snapshot["title"], .string("Load"))
        XCTAssertEqual(snapshot["xAxisTitle"], .string("Time"))
        XCTAssertEqual(snapshot["yAxisTitle"], .string("CPU"))
        XCTAssertEqual(snapshot["yMin"], .number(0))
        XCTAssertEqual(snapshot["yMax"], .number(1))
        XCTAssertEqual(snapshot["xTickFormat"], .string("time"))
        XCTAssertEqual(snapshot["yTickFormat"], .string("percent"))
        XCTAssertEqual(snapshot["showsLegend"], .bool(true))
        XCTAssertEqual(snapshot["series"], .rows([
            ListRow(id: "cpu", fields: ["title": .string("CPU"), "kind": .string("line"), "color": .color(red)]),
            ListRow(id: "n", fields: ["title": .string("n"), "kind": .string("bar")]),
        ]))
        XCTAssertEqual(snapshot["points"], .rows([
            ListRow(id: "cpu/1", fields: ["series": .string("cpu"), "x": .number(1), "y": .number(0.5)]),
            ListRow(id: "n/Mon", fields: ["series": .string("n"), "x": .string("Mon"), "y": .number(3)]),
        ]))
        chart.yRange = nil
        XCTAssertEqual(chart.snapshot()["yMin"], .null)
        XCTAssertEqual(ChartView.TickFormat.decimal(places: 2).wireName, "decimal:2")
        XCTAssertEqual(ChartView().snapshot()["title"], .null)
    }

    func testPointKeysAreSeriesAndXWithAnOccurrenceForRepeats() {
        let (chart, _) = chart([ChartSeries(id: "s", kind: .scatter,
                                            points: [ChartPoint(x: 1, y: 1), ChartPoint(x: 1, y: 2), ChartPoint(x: 1.5, y: 3),
                                                     ChartPoint(x: 1, y: 4)])])
        XCTAssertEqual(keys(chart), ["s/1", "s/1#2", "s/1.5", "s/1#3"])
    }

    // MARK: - Streaming

    func testAppendIsOneKeyedInsertAfterTheSeriesLastPoint() throws {
        let (chart, tree) = chart([cpu([0.1, 0.2]), ChartSeries(id: "mem", points: [ChartPoint(x: 0, y: 0.5)])])
        chart.append(ChartPoint(x: 2, y: 0.3), to: "cpu")
        let ops = try XCTUnwrap(pointOps(tree))
        XCTAssertEqual(ops, [.insert(index: 2, rows: [ListRow(id: "cpu/2", fields: ["series": .string("cpu"), "x": .number(2), "y": .number(0.3)])])])
        XCTAssertEqual(keys(chart), ["cpu/0", "cpu/1", "cpu/2", "mem/0"], "series stay in order")
        XCTAssertEqual(chart.series[0].points.map(\.y), [0.1, 0.2, 0.3])
    }

    func testTheWindowDropsTheOldestPointAsOneKeyedRemoval() throws {
        let (chart, tree) = chart([cpu([0.1, 0.2, 0.3], maxPoints: 3)])
        chart.append(ChartPoint(x: 3, y: 0.4), to: "cpu")
        let ops = try XCTUnwrap(pointOps(tree))
        XCTAssertEqual(ops.count, 2)
        XCTAssertEqual(ops.first, .remove(index: 0, count: 1))
        guard case .insert(2, let rows)? = ops.last else { return XCTFail("expected an insert at 2, got \(ops)") }
        XCTAssertEqual(rows.map(\.id), ["cpu/3"])
        XCTAssertEqual(keys(chart), ["cpu/1", "cpu/2", "cpu/3"])
        XCTAssertEqual(chart.series[0].points.map(\.y), [0.2, 0.3, 0.4])
    }

    func testAppendsInOneTurnCoalesceIntoOneInsertAndOneRemoval() throws {
        let (chart, tree) = chart([cpu([1, 2, 3, 4], maxPoints: 4)])
        for x in 4..<7 { chart.append(ChartPoint(x: Double(x), y: Double(x + 1)), to: "cpu") }
        let ops = try XCTUnwrap(pointOps(tree))
        XCTAssertEqual(ops.first, .remove(index: 0, count: 3))
        guard case .insert(1, let rows)? = ops.last, ops.count == 2 else { return XCTFail("got \(ops)") }
        XCTAssertEqual(rows.map(\.id), ["cpu/4", "cpu/5", "cpu/6"])
    }

    func testAppendingMoreThanTheWindowKeepsTheLastPoints() {
        let (chart, _) = chart([cpu([1], maxPoints: 2)])
        chart.append(contentsOf: [ChartPoint(x: 5, y: 5), ChartPoint(x: 6, y: 6), ChartPoint(x: 7, y: 7)], to: "cpu")
        XCTAssertEqual(keys(chart), ["cpu/6", "cpu/7"])
        XCTAssertEqual(chart.series[0].points, [ChartPoint(x: 6, y: 6), ChartPoint(x: 7, y: 7)])
    }

    func testADroppedPointsKeyIsFreeAgain() {
        let (chart, _) = chart([ChartSeries(id: "s", points: [ChartPoint(x: 1, y: 1)], maxPoints: 1)])
        chart.append(ChartPoint(x: 1, y: 2), to: "s")
        XCTAssertEqual(keys(chart), ["s/1"], "the old point went before the new one took a key")
    }

    func testAppendingToAnUnknownSeriesIsReportedAndChangesNothing() {
        let (chart, tree) = chart([cpu([1])])
        let errors = widgetTestBindingErrors {
            chart.append(ChartPoint(x: 1, y: 1), to: "nope")
        }
        XCTAssertEqual(errors, ["chart 'chart' has no series 'nope'"])
        XCTAssertEqual(widgetTestChanges(tree), [])
    }

    func testDuplicateSeriesIdsAreReportedAndTheLaterDropped() {
        let chart = ChartView(id: "c")
        let errors = widgetTestBindingErrors {
            chart.setSeries([ChartSeries(id: "a", title: "First"), ChartSeries(id: "a", title: "Second")])
        }
        XCTAssertEqual(errors, ["chart 'c': series id 'a' is used twice; the later series is dropped"])
        XCTAssertEqual(chart.series.map(\.title), ["First"])
    }

    // MARK: - Replacing series

    func testReplacingSeriesSendsOnlyTheDifference() throws {
        let (chart, tree) = chart([ChartSeries(id: "n", kind: .bar, points: [ChartPoint(x: "Red", y: 1), ChartPoint(x: "Blue", y: 2)])])
        chart.setSeries([ChartSeries(id: "n", kind: .bar, points: [ChartPoint(x: "Red", y: 1), ChartPoint(x: "Blue", y: 3)])])
        let ops = try XCTUnwrap(pointOps(tree))
        XCTAssertEqual(ops, [.update(index: 1, row: ListRow(id: "n/Blue", fields: ["series": .string("n"), "x": .string("Blue"), "y": .number(3)]))])
        chart.setSeries(chart.series)
        XCTAssertEqual(widgetTestChanges(tree), [], "the same series: no change")
    }

    func testASlidingWindowReboundWholeIsOneRemovalAndOneInsert() throws {
        let (chart, tree) = chart([cpu([1, 2, 3])])
        chart.setPoints([ChartPoint(x: 1, y: 2), ChartPoint(x: 2, y: 3), ChartPoint(x: 3, y: 4)], ofSeries: "cpu")
        let ops = try XCTUnwrap(pointOps(tree))
        XCTAssertEqual(ops.count, 2)
        XCTAssertEqual(ops.first, .remove(index: 0, count: 1))
    }

    func testSetSeriesKeepsAWindowedSeriesLastPoints() {
        let chart = ChartView()
        chart.setSeries([cpu([1, 2, 3, 4, 5], maxPoints: 2)])
        XCTAssertEqual(chart.series[0].points.map(\.y), [4, 5])
        XCTAssertEqual(keys(chart), ["cpu/3", "cpu/4"])
    }

    func testSeriesRowChangesWhenATitleOrColourChanges() {
        let (chart, tree) = chart([cpu([1])])
        var renamed = chart.series
        renamed[0].title = "Processor"
        chart.setSeries(renamed)
        XCTAssertEqual(widgetTestChanges(tree), ["chart.series = 1 rows"], "the points are unchanged")
    }

    func testPropertyChangesAreRecorded() {
        let chart = ChartView()
        let tree = widgetTestTree(["chart": chart])
        chart.title = "Load"
        chart.yRange = 0...100
        chart.yRange = 0...50
        chart.showsLegend = false
        chart.yTickFormat = .integer
        XCTAssertEqual(widgetTestChanges(tree), ["chart.title = \"Load\"", "chart.yMin = 0.0", "chart.yMax = 50.0",
                                                 "chart.showsLegend = false", "chart.yTickFormat = \"integer\""])
    }

    // MARK: - rx

    func testRxSeriesAppendAndPointsBindInOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        let chart = ChartView()
        let tree = widgetTestTree(["chart": chart])
        let bag = DisposeBag()
        scheduler.createColdObservable([.next(10, [cpu([1], maxPoints: 2), ChartSeries(id: "n", kind: .bar)])])
            .bind(to: chart.rx.series).disposed(by: bag)
        scheduler.createColdObservable([.next(20, ChartPoint(x: 1, y: 2)), .next(30, ChartPoint(x: 2, y: 3))])
            .bind(to: chart.rx.append(to: "cpu")).disposed(by: bag)
        scheduler.createColdObservable([.next(40, [ChartPoint(x: "a", y: 1)])])
            .bind(to: chart.rx.points(series: "n")).disposed(by: bag)
        scheduler.createColdObservable([.next(50, "Live"), .next(60, nil)] as [Recorded<Event<String?>>]).bind(to: chart.rx.title).disposed(by: bag)
        scheduler.createColdObservable([.next(50, Optional(0.0...1.0))]).bind(to: chart.rx.yRange).disposed(by: bag)
        var seen: [[String]] = []
        for time in [10, 20, 30, 40] {
            scheduler.advanceTo(time)
            seen.append(keys(chart))
        }
        XCTAssertEqual(seen, [["cpu/0"], ["cpu/0", "cpu/1"], ["cpu/1", "cpu/2"], ["cpu/1", "cpu/2", "n/a"]])
        scheduler.advanceTo(50)
        XCTAssertEqual(chart.title, "Live")
        XCTAssertEqual(chart.yRange, 0...1)
        scheduler.advanceTo(60)
        XCTAssertNil(chart.title)
        _ = tree
    }
}
