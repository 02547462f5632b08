import BinderyDemo
import Bindery
import BinderyTesting
import RxTesting
import RxWidgets
import XCTest

/// The `search` and `bigtable` scenes.
final class SearchSceneTests: XCTestCase {
    private func titles(_ client: SceneTestClient, _ table: String) -> [String] {
        (client.widget(table)?.rows ?? []).map { row in
            if case .string(let text)? = row["text"] { return text }
            return "?"
        }
    }

    func testTypingFiltersAfterAPauseWithOneSearch() throws {
        let client = try demoClient("search")
        XCTAssertEqual(client.widget("countLabel")?.text, "40 countries")
        XCTAssertEqual(client.widget("resultsTable")?.rows?.first?["detailText"], .string("Buenos Aires"))
        client.type("s", into: "searchBar")
        client.type("sw", into: "searchBar")
        XCTAssertEqual(client.widget("countLabel")?.text, "40 countries", "nothing before the pause")
        client.advance(by: 2)
        XCTAssertEqual(titles(client, "resultsTable"), ["Sweden", "Switzerland"])
        XCTAssertEqual(client.widget("countLabel")?.text, "2 countries")
        let controller = try XCTUnwrap(client.controller(as: CountrySearchViewController.self))
        XCTAssertEqual(controller.searches, 1, "two keystrokes within 300 ms: one search")

        client.type("xyz", into: "searchBar")
        client.advance(by: 2)
        XCTAssertEqual(client.widget("countLabel")?.text, "No country matches.")
        _ = client.send(text: #"{"type":"event","seq":9,"target":"searchBar","event":"cancelButtonClicked"}"#)
        client.advance(by: 2)
        XCTAssertEqual(client.widget("searchBar")?.text, "")
        XCTAssertEqual(client.widget("countLabel")?.text, "40 countries")
        XCTAssertEqual(client.divergence(), [])
    }

    func testTheAccessoryButtonTellsTheCapital() throws {
        let client = try demoClient("search")
        XCTAssertEqual(client.widget("resultsTable")?.rows?[4]["accessoryType"], .string("detailButton"))
        _ = client.send(text: #"{"type":"event","seq":1,"target":"resultsTable","event":"itemAccessoryButtonTapped","row":"0.4"}"#)
        let alert = try XCTUnwrap(client.widgets.first { $0.kind == "alertController" })
        XCTAssertEqual(alert["title"], .string("Brazil"))
        XCTAssertEqual(alert["message"], .string("The capital is Brasília."))
    }

    func testMatchingIgnoresCaseAndAccents() {
        XCTAssertEqual(CountrySearchViewController.matches("ICE").map(\.name), ["Iceland"])
        XCTAssertEqual(CountrySearchViewController.matches("bogota").map(\.capital), [])  // names, not capitals
        XCTAssertEqual(CountrySearchViewController.matches("  ").count, 40)
    }

    func testTenThousandRowsAndOneInsertIsOneKeyedOp() throws {
        let client = try demoClient("bigtable")
        XCTAssertEqual(client.widget("numbersTable")?.rows?.count, 10_000)
        let answer = client.tap("addButton")
        XCTAssertEqual(answer.changeDescriptions, ["numbersTable.items ops [\"insert 1 rows at 0\"]"])
        XCTAssertEqual(titles(client, "numbersTable").prefix(2), ["Row 10001", "Row 1"])
        _ = client.send(text: #"{"type":"event","seq":2,"target":"numbersTable","event":"itemSelected","row":"42"}"#)
        XCTAssertEqual(client.widget("pickedLabel")?.text, "You picked row 42.")
        XCTAssertEqual(client.divergence(), [])
    }
}
