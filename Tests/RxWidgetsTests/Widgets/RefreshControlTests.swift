import RxCore
import RxWidgets
import XCTest

final class RefreshControlTests: XCTestCase {
    func testAUsersPullBeginsRefreshingThenSendsValueChanged() throws {
        let table = TableView()
        let refresh = RefreshControl()
        table.refreshControl = refresh
        let tree = widgetTestTree(["table": table, "refresh": refresh])
        let bag = DisposeBag()
        var log: [String] = []
        refresh.rx.controlEvent(.valueChanged)
            .subscribe(onNext: { log.append("valueChanged, isRefreshing \(refresh.isRefreshing)") })
            .disposed(by: bag)
        XCTAssertEqual(refresh.snapshot()["view"], .string("table"))
        XCTAssertEqual(refresh.snapshot()["isRefreshing"], .bool(false))
        try refresh.sendUserEvent(.valueChanged)
        XCTAssertEqual(log, ["valueChanged, isRefreshing true"])
        XCTAssertEqual(widgetTestChanges(tree), ["refresh.isRefreshing = true"])
        // A second pull while refreshing does nothing (UIKit offers none).
        try refresh.sendUserEvent(.valueChanged)
        XCTAssertEqual(log.count, 1)
        refresh.endRefreshing()
        XCTAssertFalse(refresh.isRefreshing)
        XCTAssertEqual(widgetTestChanges(tree), ["refresh.isRefreshing = false"])
    }

    func testBeginAndEndRefreshingInCodeSendNoEvent() {
        let refresh = RefreshControl()
        var events = 0
        let subscription = refresh.rx.controlEvent(.valueChanged).subscribe(onNext: { events += 1 })
        refresh.beginRefreshing()
        XCTAssertTrue(refresh.isRefreshing)
        Observable.just(false).bind(to: refresh.rx.isRefreshing).dispose()
        XCTAssertFalse(refresh.isRefreshing)
        Observable.just(true).bind(to: refresh.rx.isRefreshing).dispose()
        XCTAssertTrue(refresh.isRefreshing)
        XCTAssertEqual(events, 0)
        subscription.dispose()
    }

    func testAValueOrAnotherEventIsRejected() {
        let refresh = RefreshControl()
        refresh.id = "refresh"
        XCTAssertThrowsError(try refresh.sendUserEvent(.valueChanged, value: .bool(true))) { error in
            XCTAssertEqual((error as? WidgetInputError)?.code, .badValue)
        }
        XCTAssertThrowsError(try refresh.sendUserEvent(.touchUpInside)) { error in
            XCTAssertEqual((error as? WidgetInputError)?.code, .unknownEvent)
        }
        refresh.isEnabled = false
        XCTAssertThrowsError(try refresh.sendUserEvent(.valueChanged)) { error in
            XCTAssertEqual((error as? WidgetInputError)?.code, .disabled)
        }
        XCTAssertFalse(refresh.isRefreshing)
    }

    func testAttachingMovesTheControlAndListsItAsAttached() {
        let table = TableView()
        let grid = CollectionView()
        let refresh = RefreshControl()
        XCTAssertNil(table.refreshControl)
        table.refreshControl = refresh
        XCTAssertTrue(refresh.scrollView === table)
        XCTAssertTrue(table.attachedWidgets.contains { $0 === refresh })
        grid.refreshControl = refresh
        XCTAssertNil(table.refreshControl, "a control belongs to one view")
        XCTAssertTrue(refresh.scrollView === grid)
        grid.refreshControl = nil
        XCTAssertNil(refresh.scrollView)
        XCTAssertTrue(grid.attachedWidgets.isEmpty)
    }
}
