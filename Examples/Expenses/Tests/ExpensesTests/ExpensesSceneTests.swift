import Bindery
import BinderyTesting
import Expenses
import RxWidgets
import XCTest

/// The Expenses screen driven as the browser drives it, in virtual time (1 tick = 1 s;
/// a save takes 2).
final class ExpensesSceneTests: XCTestCase {
    private var client: SceneTestClient!

    override func setUpWithError() throws {
        let registry = SceneRegistry()
        registerExpenses(registry)
        client = try SceneTestClient(scene: "expenses", registry: registry)
    }

    private func text(_ id: String) -> String? { client.widget(id)?.text }
    private func enabled(_ id: String) -> Bool? { client.widget(id)?.isEnabled }
    private var rowTitles: [String] {
        (client.widget("expenseList")?.rows ?? []).map { row in
            if case .string(let title)? = row["title"] { return title }
            return "?"
        }
    }

    private func fill(_ title: String, _ amount: String) {
        client.type(title, into: "titleField")
        client.type(amount, into: "amountField")
    }

    func testTheFormStartsEmptyWithSaveDisabled() {
        XCTAssertEqual(enabled("saveButton"), false)
        XCTAssertEqual(client.widget("saveButton")?["title"], .string("Save expense"))
        XCTAssertEqual(client.widget("categoryPicker")?["segments"], .strings(["Food", "Travel", "Office", "Other"]))
        XCTAssertEqual(client.widget("categoryPicker")?["selectedSegmentIndex"], .number(0))
        XCTAssertEqual(rowTitles, [])
        XCTAssertEqual(text("totalLabel"), "Total: 0.00")
        XCTAssertEqual(client.tap("saveButton").errorCode, "disabled")
    }

    func testSaveIsEnabledOnlyForATitleAndAPositiveAmount() {
        client.type("Lunch", into: "titleField")
        XCTAssertEqual(enabled("saveButton"), false, "no amount yet")
        for bad in ["abc", "0", "12.345", "-3", "1.2.3"] {
            client.type(bad, into: "amountField")
            XCTAssertEqual(enabled("saveButton"), false, bad)
            XCTAssertEqual(text("amountHint"), "Enter an amount like 12.50", bad)
        }
        client.type("12,5", into: "amountField")
        XCTAssertEqual(enabled("saveButton"), true)
        XCTAssertEqual(text("amountHint"), "")
        client.type("   ", into: "titleField")
        XCTAssertEqual(enabled("saveButton"), false, "a blank title")
        XCTAssertEqual(client.divergence(), [])
    }

    func testSavingShowsProgressThenAddsTheExpenseAndClearsTheForm() {
        fill(" Team lunch ", "42.50")
        client.send(event: "valueChanged", to: "categoryPicker", value: 2)
        XCTAssertEqual(client.tap("saveButton").errorCode, nil)

        // While saving: a spinner, a status line, the button and the form locked.
        XCTAssertEqual(text("statusLabel"), "Saving “Team lunch”…")
        XCTAssertEqual(client.widget("savingIndicator")?["isAnimating"], .bool(true))
        XCTAssertEqual(enabled("saveButton"), false)
        XCTAssertEqual(enabled("titleField"), false)
        XCTAssertEqual(client.tap("saveButton").errorCode, "disabled", "one save at a time")

        client.advance(by: 1)
        XCTAssertEqual(rowTitles, [], "still saving after 1 s")
        client.advance(by: 1)
        XCTAssertEqual(rowTitles, ["Team lunch"])
        let row = client.widget("expenseList")?.rows?.first
        XCTAssertEqual(row?["amount"], .string("42.50"))
        XCTAssertEqual(row?["category"], .string("Office"))
        XCTAssertEqual(text("totalLabel"), "Total: 42.50")
        XCTAssertEqual(text("statusLabel"), "Saved “Team lunch” (42.50).")
        XCTAssertEqual(client.widget("savingIndicator")?["isAnimating"], .bool(false))
        XCTAssertEqual(text("titleField"), "", "the form starts over")
        XCTAssertEqual(text("amountField"), "")
        XCTAssertEqual(client.widget("categoryPicker")?["selectedSegmentIndex"], .number(2), "the category stays")
        XCTAssertEqual(enabled("titleField"), true)
        XCTAssertEqual(enabled("saveButton"), false, "an empty form cannot be saved")
        XCTAssertEqual(client.divergence(), [])
    }

    func testReturnInTheAmountFieldSavesAndNewestComeFirst() {
        fill("Taxi", "18")
        client.send(event: "editingDidEndOnExit", to: "amountField", value: "18")
        client.advance(by: 2)
        fill("Train", "1234.5")
        client.send(event: "editingDidEndOnExit", to: "amountField", value: "1000")
        client.advance(by: 2)
        XCTAssertEqual(rowTitles, ["Train", "Taxi"])
        XCTAssertEqual(text("totalLabel"), "Total: 1,018.00")
    }

    func testARefusedSaveShowsTheErrorAndKeepsTheForm() {
        fill("New laptop", "2400")
        client.tap("saveButton")
        client.advance(by: 2)
        XCTAssertEqual(text("statusLabel"), "Couldn't save: Amounts over 1,000.00 need a manager's approval.")
        XCTAssertNotNil(client.widget("statusLabel")?["textColor"].flatMap { $0 == .null ? nil : $0 }, "shown in red")
        XCTAssertEqual(rowTitles, [])
        XCTAssertEqual(text("titleField"), "New laptop", "nothing typed is lost")
        XCTAssertEqual(text("amountField"), "2400")
        XCTAssertEqual(enabled("saveButton"), true, "the user can fix it and try again")

        client.type("240", into: "amountField")
        client.tap("saveButton")
        XCTAssertEqual(text("statusLabel"), "Saving “New laptop”…")
        client.advance(by: 2)
        XCTAssertEqual(rowTitles, ["New laptop"])
        XCTAssertEqual(client.widget("statusLabel")?["textColor"], client.widget("totalLabel")?["textColor"],
                       "the error colour is gone")
    }
}
