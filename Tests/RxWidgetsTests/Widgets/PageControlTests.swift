import RxCore
import RxWidgets
import XCTest

final class PageControlTests: XCTestCase {
    func testCurrentPageIsClampedAsUIKitDoes() {
        let pages = PageControl()
        XCTAssertEqual(pages.numberOfPages, 0)
        pages.currentPage = 3
        XCTAssertEqual(pages.currentPage, 0, "no pages: page 0")
        pages.numberOfPages = 5
        pages.currentPage = 4
        pages.currentPage = 9
        XCTAssertEqual(pages.currentPage, 4)
        pages.currentPage = -2
        XCTAssertEqual(pages.currentPage, 0)
        pages.currentPage = 4
        pages.numberOfPages = 2
        XCTAssertEqual(pages.currentPage, 1, "fewer pages move the current page onto the last")
        pages.numberOfPages = -1
        XCTAssertEqual(pages.numberOfPages, 0)
    }

    func testAUsersPageSetsCurrentPageThenSendsValueChangedAndRxCurrentPage() throws {
        let pages = PageControl()
        pages.numberOfPages = 3
        let tree = widgetTestTree(["pages": pages])
        let bag = DisposeBag()
        var log: [String] = []
        pages.rx.currentPage.subscribe(onNext: { log.append("page \($0)") }).disposed(by: bag)
        pages.rx.controlEvent(.valueChanged).subscribe(onNext: { log.append("valueChanged") }).disposed(by: bag)
        XCTAssertEqual(try pages.sendUserEvent(.valueChanged, value: .number(2)), .number(2))
        XCTAssertEqual(log, ["page 0", "page 2", "valueChanged"])
        XCTAssertEqual(widgetTestChanges(tree), ["pages.currentPage = 2.0"])
        // Setting in code (or through the binder) sends nothing.
        Observable.just(1).bind(to: pages.rx.currentPage).disposed(by: bag)
        XCTAssertEqual(pages.currentPage, 1)
        Observable.just(6).bind(to: pages.rx.numberOfPages).disposed(by: bag)
        XCTAssertEqual(pages.numberOfPages, 6)
        XCTAssertEqual(log.count, 3)
    }

    func testAPageWithoutADotIsABadValue() {
        let pages = PageControl()
        pages.id = "pages"
        pages.numberOfPages = 3
        for bad: WidgetValue in [.number(3), .number(-1), .number(1.5), .string("1")] {
            XCTAssertThrowsError(try pages.sendUserEvent(.valueChanged, value: bad)) { error in
                XCTAssertEqual((error as? WidgetInputError)?.code, .badValue, "\(bad)")
            }
        }
        XCTAssertThrowsError(try pages.sendUserEvent(.valueChanged, value: .number(3))) { error in
            XCTAssertEqual((error as? WidgetInputError)?.message, "pageControl 'pages': currentPage must be a page in 0..<3, got 3")
        }
        XCTAssertEqual(pages.currentPage, 0)
    }

    func testSnapshotCarriesThePagesAndColours() {
        let pages = PageControl()
        pages.numberOfPages = 4
        pages.currentPage = 2
        pages.hidesForSinglePage = true
        pages.currentPageIndicatorTintColor = .red
        let snapshot = pages.snapshot()
        XCTAssertEqual(snapshot["numberOfPages"], .number(4))
        XCTAssertEqual(snapshot["currentPage"], .number(2))
        XCTAssertEqual(snapshot["hidesForSinglePage"], .bool(true))
        XCTAssertEqual(snapshot["currentPageIndicatorTintColor"], .color(.red))
        XCTAssertNil(snapshot["pageIndicatorTintColor"])
        XCTAssertEqual(pages.kind, "pageControl")
        XCTAssertEqual(pages.valueProperty, "currentPage")
    }
}
