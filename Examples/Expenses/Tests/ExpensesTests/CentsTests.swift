import Expenses
import XCTest

/// The amount parser and formatter the form relies on.
final class CentsTests: XCTestCase {
    func testParsing() {
        XCTAssertEqual(Cents(parsing: "12")?.value, 1200)
        XCTAssertEqual(Cents(parsing: "12.5")?.value, 1250)
        XCTAssertEqual(Cents(parsing: " 12,05 ")?.value, 1205)
        for bad in ["", ".5", "12.", "12.345", "1e3", "-1", "1 000", "١٢"] {
            XCTAssertNil(Cents(parsing: bad), bad)
        }
    }

    func testFormatting() {
        XCTAssertEqual(Cents(5).formatted, "0.05")
        XCTAssertEqual(Cents(123_456_78).formatted, "123,456.78")
        XCTAssertEqual(Cents(100_000).formatted, "1,000.00")
    }
}
