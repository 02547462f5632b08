import Bindery
import BinderyTesting
import RxWidgets
import TodoMVC
import XCTest

/// The TodoMVC specification, driven through the scene as the page drives it (the same
/// events over BinderyTesting's in-process client, no server, no browser).
final class TodoSceneTests: XCTestCase {
    private var client: SceneTestClient!

    override func setUpWithError() throws {
        let registry = SceneRegistry()
        registerTodoMVC(registry)
        client = try SceneTestClient(scene: "todomvc", registry: registry)
    }

    // MARK: Helpers: what the page sends

    @discardableResult
    private func add(_ text: String) -> SceneTestAnswer {
        client.send(event: "editingDidEndOnExit", to: "newTodo", value: text)
    }

    private func rowAction(_ widget: String, _ id: String) {
        XCTAssertNil(client.send(event: "editingDidEndOnExit", to: widget, value: id).errorCode)
    }

    private var titles: [String] { rows.map { if case .string(let title)? = $0["title"] { return title } else { return "?" } } }
    private var rows: [ListRow] { client.widget("todoList")?.rows ?? [] }
    private func isHidden(_ id: String) -> Bool { client.widget(id)?["isHidden"] == .bool(true) }
    private func completed(_ index: Int) -> Bool { rows[index]["completed"] == .bool(true) }

    // MARK: No todos

    func testWithNoTodosTheMainSectionAndFooterAreHidden() {
        XCTAssertEqual(rows, [])
        XCTAssertTrue(isHidden("main"))
        XCTAssertTrue(isHidden("footer"))
        XCTAssertEqual(client.widget("newTodo")?["placeholder"], .string("What needs to be done?"))
    }

    // MARK: New todo

    func testReturnAddsTheTrimmedTodoAndClearsTheField() {
        XCTAssertTrue(add("  buy some cheese  ").changeDescriptions.contains("newTodo.text = \"\""), "the page clears its field")
        XCTAssertEqual(titles, ["buy some cheese"])
        XCTAssertEqual(client.widget("newTodo")?.text, "")
        XCTAssertFalse(isHidden("main"))
        XCTAssertFalse(isHidden("footer"))
        add("feed the cat")
        XCTAssertEqual(titles, ["buy some cheese", "feed the cat"], "appended at the bottom")
        XCTAssertEqual(client.divergence(), [])
    }

    func testABlankTodoIsNotAddedAndTheFieldKeepsItsText() {
        add("   ")
        XCTAssertEqual(rows, [])
        XCTAssertEqual(client.widget("newTodo")?.text, "   ")
        XCTAssertTrue(isHidden("main"))
    }

    // MARK: Item count

    private var itemsLeft: String {
        "\(client.widget("activeCount")?.text ?? "?") \(client.widget("itemsLeft")?.text ?? "?")"
    }

    func testItemsLeftCountsActiveTodosWithTheRightPlural() {
        add("one")
        XCTAssertEqual(itemsLeft, "1 item left")
        add("two")
        XCTAssertEqual(itemsLeft, "2 items left")
        rowAction("toggleTodo", rows[0].id)
        XCTAssertEqual(itemsLeft, "1 item left")
        rowAction("toggleTodo", rows[1].id)
        XCTAssertEqual(itemsLeft, "0 items left")
    }

    // MARK: Toggle, toggle all, destroy, clear completed

    func testToggleMarksATodoCompletedAndBack() {
        add("one")
        let id = rows[0].id
        rowAction("toggleTodo", id)
        XCTAssertTrue(completed(0))
        rowAction("toggleTodo", id)
        XCTAssertFalse(completed(0), "the same id twice toggles twice")
    }

    func testToggleAllCompletesEverythingAndFollowsTheTodos() {
        add("one")
        add("two")
        XCTAssertEqual(client.widget("toggleAll")?["isOn"], .bool(false))
        client.send(event: "valueChanged", to: "toggleAll", value: true)
        XCTAssertEqual([completed(0), completed(1)], [true, true])
        client.send(event: "valueChanged", to: "toggleAll", value: false)
        XCTAssertEqual([completed(0), completed(1)], [false, false])

        // Its state follows the todos: checked exactly when every todo is completed.
        rowAction("toggleTodo", rows[0].id)
        XCTAssertEqual(client.widget("toggleAll")?["isOn"], .bool(false))
        rowAction("toggleTodo", rows[1].id)
        XCTAssertEqual(client.widget("toggleAll")?["isOn"], .bool(true))
        add("three")
        XCTAssertEqual(client.widget("toggleAll")?["isOn"], .bool(false))
    }

    func testDestroyRemovesOneTodo() {
        add("one")
        add("two")
        rowAction("destroyTodo", rows[0].id)
        XCTAssertEqual(titles, ["two"])
        rowAction("destroyTodo", rows[0].id)
        XCTAssertTrue(isHidden("main"), "the last one gone: hidden again")
        XCTAssertTrue(isHidden("footer"))
    }

    func testClearCompletedIsShownOnlyWithCompletedTodosAndRemovesThem() {
        add("one")
        add("two")
        XCTAssertTrue(isHidden("clearCompleted"))
        XCTAssertEqual(client.widget("clearCompleted")?["title"], .string("Clear completed"))
        rowAction("toggleTodo", rows[1].id)
        XCTAssertFalse(isHidden("clearCompleted"))
        client.tap("clearCompleted")
        XCTAssertEqual(titles, ["one"])
        XCTAssertTrue(isHidden("clearCompleted"))
    }

    // MARK: Editing

    func testEditingSavesTheTrimmedTitleOnReturn() {
        add("one")
        let id = rows[0].id
        rowAction("editTodo", id)
        XCTAssertEqual(rows[0]["editing"], .bool(true))
        client.send(event: "editingDidEndOnExit", to: "editor", value: "  one, edited ")
        XCTAssertEqual(titles, ["one, edited"])
        XCTAssertEqual(rows[0]["editing"], .bool(false))
        XCTAssertEqual(rows[0].id, id, "the same todo")
    }

    func testLeavingTheEditFieldSavesToo() {
        add("one")
        rowAction("editTodo", rows[0].id)
        client.send(event: "editingDidEnd", to: "editor", value: "blurred")
        XCTAssertEqual(titles, ["blurred"])
        client.send(event: "editingDidEnd", to: "editor", value: "late blur")
        XCTAssertEqual(titles, ["blurred"], "no edit under way: nothing saved")
    }

    func testEscapeCancelsTheEdit() {
        add("one")
        rowAction("editTodo", rows[0].id)
        client.tap("cancelEdit")
        client.send(event: "editingDidEnd", to: "editor", value: "typed, then Escape")
        XCTAssertEqual(titles, ["one"])
        XCTAssertEqual(rows[0]["editing"], .bool(false))
    }

    func testAnEmptyEditDestroysTheTodo() {
        add("one")
        add("two")
        rowAction("editTodo", rows[0].id)
        client.send(event: "editingDidEndOnExit", to: "editor", value: "   ")
        XCTAssertEqual(titles, ["two"])
    }

    // MARK: Filters

    func testFiltersShowActiveOrCompletedTodos() {
        add("one")
        add("two")
        add("three")
        rowAction("toggleTodo", rows[1].id)
        client.send(event: "valueChanged", to: "filter", value: TodoFilter.active.rawValue)
        XCTAssertEqual(titles, ["one", "three"])
        client.send(event: "valueChanged", to: "filter", value: TodoFilter.completed.rawValue)
        XCTAssertEqual(titles, ["two"])
        rowAction("toggleTodo", rows[0].id)
        XCTAssertEqual(titles, [], "un-completing it moves it out of the Completed view")
        XCTAssertFalse(isHidden("main"), "hidden only when there are no todos at all")
        client.send(event: "valueChanged", to: "filter", value: TodoFilter.all.rawValue)
        XCTAssertEqual(titles, ["one", "two", "three"])
        XCTAssertEqual(client.widget("filter")?["segments"], .strings(["All", "Active", "Completed"]))
        XCTAssertEqual(client.divergence(), [])
    }

    func testAnUnknownRowIdIsIgnored() {
        add("one")
        rowAction("toggleTodo", "t999")
        rowAction("destroyTodo", "t999")
        rowAction("editTodo", "t999")
        XCTAssertEqual(titles, ["one"])
        XCTAssertFalse(completed(0))
        XCTAssertEqual(rows[0]["editing"], .bool(false))
    }
}
