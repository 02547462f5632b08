import Foundation
import RxWidgets
import XCTest

final class IndexPathTests: XCTestCase {
    func testRowAndSectionAreUIKitsIndexes() {
        var path = IndexPath(row: 3, section: 1)
        XCTAssertEqual(path.row, 3)
        XCTAssertEqual(path.section, 1)
        XCTAssertEqual(path.item, 3)
        XCTAssertEqual(path, IndexPath(indexes: [1, 3]))
        XCTAssertEqual(IndexPath(item: 3, section: 1), path)
        path.row = 4
        path.section = 0
        XCTAssertEqual(path, [0, 4])
        XCTAssertLessThan(IndexPath(row: 9, section: 0), IndexPath(row: 0, section: 1))
    }
}
