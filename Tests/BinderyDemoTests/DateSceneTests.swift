import BinderyDemo
import Bindery
import BinderyTesting
import Foundation
import XCTest

final class DateSceneTests: XCTestCase {
    /// The contract's format in the process's time zone, computed without a formatter.
    private func expected(_ date: Date) -> String {
        let parts = Calendar(identifier: .gregorian).dateComponents(in: TimeZone.current, from: date)
        return String(format: "%04d년 %02d월 %02d일 %02d:%02d", parts.year!, parts.month!, parts.day!, parts.hour!, parts.minute!)
    }

    func testNowShowsTheClocksDateFormatted() throws {
        let start = Date(timeIntervalSince1970: 1_714_555_800) // 2024-05-01 09:30 UTC
        let client = try demoClient("date", scheduler: demoClock(at: start))
        XCTAssertEqual(client.widgets.map(\.id), ["nowButton", "dateField"])
        XCTAssertEqual(client.widget("dateField")?.text, "", "empty until the first tap")

        XCTAssertEqual(client.tap("nowButton").changeDescriptions, ["dateField.text = \"\(expected(start))\""])
        client.advance(by: 61 * 60)
        XCTAssertEqual(client.tap("nowButton").changeDescriptions, ["dateField.text = \"\(expected(start + 61 * 60))\""])
        XCTAssertEqual(client.tap("nowButton").changeDescriptions, [], "same minute: nothing new")
    }

    func testTheDateIsInTheTimeZoneOfTZ() throws {
        // The formatter reads the current zone on every tap: TZ decides (UTC+9 here).
        let saved = ProcessInfo.processInfo.environment["TZ"]
        defer {
            if let saved { setenv("TZ", saved, 1) } else { unsetenv("TZ") }
            NSTimeZone.resetSystemTimeZone()
        }
        setenv("TZ", "Asia/Seoul", 1)
        NSTimeZone.resetSystemTimeZone()
        let client = try demoClient("date", scheduler: demoClock(at: Date(timeIntervalSince1970: 1_714_555_800)))
        XCTAssertEqual(client.tap("nowButton").changeDescriptions, ["dateField.text = \"2024년 05월 01일 18:30\""])
    }
}
