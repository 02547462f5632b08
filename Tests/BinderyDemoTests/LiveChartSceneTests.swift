import Bindery
import BinderyDemo
import BinderyTesting
import Foundation
import RxTesting
import RxWidgets
import XCTest

/// The `chart` scene in virtual time: the live chart grows to its window then slides,
/// each sample one small patch; Pause stops it; votes move the bars; the scatter fills.
final class LiveChartSceneTests: XCTestCase {
    /// A clock of tenths of a second, so the 500 ms period is 5 ticks.
    private func client() throws -> SceneTestClient {
        try demoClient("chart", scheduler: TestScheduler(initialClock: 0, resolution: 0.1, simulateProcessingDelay: false))
    }

    private func points(_ client: SceneTestClient, _ chart: String, series: String) -> [ListRow] {
        guard case .rows(let rows)? = client.widget(chart)?["points"] else { return [] }
        return rows.filter { $0["series"] == .string(series) }
    }

    private func ys(_ client: SceneTestClient, _ chart: String, series: String) -> [Double] {
        points(client, chart, series: series).map { row in
            if case .number(let y)? = row["y"] { return y }
            return .nan
        }
    }

    func testTheSceneOpensWithHistoryAndTitledCharts() throws {
        let client = try client()
        let load = try XCTUnwrap(client.widget("loadChart"))
        XCTAssertEqual(load.kind, "chartView")
        XCTAssertEqual(load["title"], .string("Server load"))
        XCTAssertEqual(load["yTickFormat"], .string("percent"))
        XCTAssertEqual(load["xTickFormat"], .string("time"))
        XCTAssertEqual(load["yMin"], .number(0))
        XCTAssertEqual(load["yMax"], .number(1))
        XCTAssertEqual(points(client, "loadChart", series: "cpu").count, LiveChartViewController.history)
        XCTAssertEqual(points(client, "loadChart", series: "memory").count, LiveChartViewController.history)
        XCTAssertEqual(points(client, "latencyChart", series: "requests").count, LiveChartViewController.history)
        XCTAssertEqual(ys(client, "votesChart", series: "votes"), [0, 0, 0])
        XCTAssertEqual(client.widget("pauseButton")?["title"], .string("Pause"))
        XCTAssertEqual(client.widget("resetButton")?.isEnabled, false)
        XCTAssertTrue(client.widget("statusLabel")?.text?.hasPrefix("Live · CPU ") ?? false)
        for y in ys(client, "loadChart", series: "cpu") { XCTAssertTrue((0...1).contains(y), "\(y) is a load") }
    }

    func testItStreamsAPointEveryHalfSecondAsOneSmallPatchThenSlides() throws {
        let client = try client()
        _ = client.takePatches()
        client.advance(by: 5)  // 500 ms
        let first = client.takePatches()
        XCTAssertEqual(first.count, 1)
        XCTAssertNil(first[0].ack, "a pushed patch")
        let loadChange = try XCTUnwrap(first[0].changes.first { $0.target == "loadChart" })
        XCTAssertEqual(loadChange.testDescription, "loadChart.points ops [\"insert 1 rows at 10\", \"insert 1 rows at 21\"]")
        let bytes = MessageEncoder.encodeUTF8(.patch(first[0])).count
        XCTAssertLessThan(bytes, 520, "two line points, one dot and the status: \(bytes) bytes")
        XCTAssertEqual(points(client, "loadChart", series: "cpu").count, LiveChartViewController.history + 1)

        // It grows to the window, then each sample slides it: one removal, one insert per series.
        client.advance(by: 5 * (LiveChartViewController.window - LiveChartViewController.history - 1))
        XCTAssertEqual(points(client, "loadChart", series: "cpu").count, LiveChartViewController.window)
        _ = client.takePatches()
        client.advance(by: 5)
        let slid = try XCTUnwrap(client.takePatches().first?.changes.first { $0.target == "loadChart" })
        XCTAssertEqual(slid.testDescription,
                       "loadChart.points ops [\"remove 1 at 40\", \"remove 1 at 0\", \"insert 1 rows at 39\", \"insert 1 rows at 79\"]")
        XCTAssertEqual(points(client, "loadChart", series: "cpu").count, LiveChartViewController.window)
        let controller = try XCTUnwrap(client.controller(as: LiveChartViewController.self))
        XCTAssertEqual(controller.samplesTaken, LiveChartViewController.window + 1)
        XCTAssertEqual(client.divergence(), [])
    }

    func testPauseStopsTheStreamAndResumeStartsIt() throws {
        let client = try client()
        let controller = try XCTUnwrap(client.controller(as: LiveChartViewController.self))
        client.advance(by: 10)
        XCTAssertEqual(controller.samplesTaken, LiveChartViewController.history + 2)
        let paused = client.tap("pauseButton")
        XCTAssertEqual(Set(paused.changeDescriptions), ["pauseButton.title = \"Resume\"", "statusLabel.text = \"Paused\""])
        _ = client.takePatches()
        client.advance(by: 50)
        XCTAssertEqual(controller.samplesTaken, LiveChartViewController.history + 2, "no samples while paused")
        XCTAssertEqual(client.takePatches().count, 0, "and nothing sent")
        _ = client.tap("pauseButton")
        XCTAssertEqual(client.widget("pauseButton")?["title"], .string("Pause"))
        client.advance(by: 5)
        XCTAssertEqual(controller.samplesTaken, LiveChartViewController.history + 3)
        XCTAssertTrue(client.widget("statusLabel")?.text?.hasPrefix("Live · CPU ") ?? false)
    }

    func testVotesMoveTheBarsOneUpdateEachAndResetClearsThem() throws {
        let client = try client()
        XCTAssertEqual(client.tap("pearsButton").changeDescriptions.filter { $0.hasPrefix("votesChart") },
                       ["votesChart.points ops [\"update 1 (votes/Pears)\"]"])
        _ = client.tap("pearsButton")
        _ = client.tap("plumsButton")
        XCTAssertEqual(ys(client, "votesChart", series: "votes"), [0, 2, 1])
        XCTAssertEqual(points(client, "votesChart", series: "votes").map(\.id), ["votes/Apples", "votes/Pears", "votes/Plums"])
        XCTAssertEqual(client.widget("resetButton")?.isEnabled, true)
        _ = client.tap("resetButton")
        XCTAssertEqual(ys(client, "votesChart", series: "votes"), [0, 0, 0])
        XCTAssertEqual(client.widget("resetButton")?.isEnabled, false)
        XCTAssertEqual(client.divergence(), [])
    }

    func testTheScatterFillsUpToItsWindow() throws {
        let client = try client()
        client.advance(by: 5 * 80)
        XCTAssertEqual(points(client, "latencyChart", series: "requests").count, LiveChartViewController.scatterWindow)
        XCTAssertEqual(Set(points(client, "latencyChart", series: "requests").map(\.id)).count, LiveChartViewController.scatterWindow,
                       "keys are unique even where loads repeat")
    }

    func testTheSamplesAreTheSameEveryRun() throws {
        let first = try client()
        let second = try client()
        first.advance(by: 50)
        second.advance(by: 50)
        XCTAssertEqual(ys(first, "loadChart", series: "cpu"), ys(second, "loadChart", series: "cpu"))
    }
}
