import BinderyDemo
import Bindery
import BinderyTesting
import RxWidgets
import XCTest

final class ReposSceneTests: XCTestCase {
    func testTheListStartsEmptyAndLoadsTwentyRowsPerTap() throws {
        let client = try demoClient("repos")
        XCTAssertEqual(client.widgets.map(\.id), ["repoList", "loadMoreButton"])
        XCTAssertEqual(client.widgets.map(\.kind), ["listView", "button"])
        XCTAssertEqual(client.widget("repoList")?.rows, [])
        XCTAssertEqual(client.widget("loadMoreButton")?["title"], .string("Load more"))

        let answer = client.tap("loadMoreButton")
        XCTAssertEqual(answer.changes.map(\.target), ["repoList"], "the button ends enabled: no net change")
        let rows = try XCTUnwrap(client.widget("repoList")?.rows)
        XCTAssertEqual(rows.count, 20)
        XCTAssertEqual(rows.first, ListRow(id: "repo-1", fields: ["name": .string("repo-1"), "author": .string("author-1")]))
        XCTAssertEqual(rows.last?.id, "repo-20")
    }

    func testFiveLoadsGiveOneHundredRowsAndDisableTheButton() throws {
        let client = try demoClient("repos")
        // The first page goes as a full array (smaller than an insert operation), later
        // ones as keyed inserts at the end.
        XCTAssertEqual(client.tap("loadMoreButton").changeDescriptions, ["repoList.items = 20 rows"])
        for load in 2...4 {
            XCTAssertEqual(client.tap("loadMoreButton").changeDescriptions,
                           ["repoList.items ops [\"insert 20 rows at \((load - 1) * 20)\"]"])
        }
        XCTAssertEqual(client.tap("loadMoreButton").changeDescriptions,
                       ["repoList.items ops [\"insert 20 rows at 80\"]", "loadMoreButton.isEnabled = false"])
        let rows = try XCTUnwrap(client.widget("repoList")?.rows)
        XCTAssertEqual(rows.map(\.id), (1...100).map { "repo-\($0)" })
        XCTAssertEqual(rows[41]["author"], .string("author-42"))
        XCTAssertEqual(client.widget("loadMoreButton")?.isEnabled, false)

        XCTAssertEqual(client.tap("loadMoreButton").errorCode, "disabled")
        XCTAssertEqual(client.widget("repoList")?.rows?.count, 100)
        XCTAssertEqual(client.divergence(), [])
    }
}
