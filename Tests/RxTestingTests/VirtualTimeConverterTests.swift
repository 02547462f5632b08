import Foundation
@testable import RxCore
@testable import RxTesting
import XCTest

final class VirtualTimeConverterTests: XCTestCase {
    func testTestSchedulerConverterUsesTicksOfResolution() {
        let scheduler = TestScheduler(initialClock: 0, resolution: 0.5)
        XCTAssertEqual(scheduler.now, Date(timeIntervalSince1970: 0))
        scheduler.advanceTo(10)
        XCTAssertEqual(scheduler.now, Date(timeIntervalSince1970: 5))
    }

    func testConvertToVirtualTimeIntervalTakesSeconds() {
        let converter = TestSchedulerVirtualTimeConverter(resolution: 0.5)
        let seconds: TimeInterval = 2.0
        XCTAssertEqual(converter.convertToVirtualTimeInterval(seconds), 4)
        XCTAssertEqual(converter.convertToVirtualTimeInterval(0.24), 0)
        XCTAssertEqual(converter.convertToVirtualTimeInterval(0.26), 1)
        XCTAssertEqual(converter.convertFromVirtualTimeInterval(4), 2.0)
        XCTAssertEqual(converter.convertToVirtualTime(Date(timeIntervalSince1970: 3)), 6)
        XCTAssertEqual(converter.convertFromVirtualTime(6), Date(timeIntervalSince1970: 3))
        XCTAssertEqual(converter.offsetVirtualTime(6, offset: 4), 10)
        XCTAssertEqual(converter.compareVirtualTime(1, 2), .lessThan)
        XCTAssertEqual(converter.compareVirtualTime(2, 2), .equal)
        XCTAssertEqual(converter.compareVirtualTime(3, 2), .greaterThan)
    }

    func testHistoricalConverterTakesSeconds() {
        let converter = HistoricalSchedulerTimeConverter()
        XCTAssertEqual(converter.convertToVirtualTimeInterval(2.5), 2.5)
        XCTAssertEqual(converter.offsetVirtualTime(Date(timeIntervalSince1970: 1), offset: 2.5), Date(timeIntervalSince1970: 3.5))
    }
}
