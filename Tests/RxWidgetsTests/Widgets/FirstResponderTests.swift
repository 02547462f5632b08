import RxCore
import RxWidgets
import XCTest

/// `becomeFirstResponder`, `resignFirstResponder`, `endEditing` and the user's focus
/// events (View+FirstResponder.swift).
final class FirstResponderTests: XCTestCase {
    private var bag = DisposeBag()

    override func tearDown() {
        bag = DisposeBag()
        super.tearDown()
    }

    /// Logs `name began` / `name ended` for each editing event of `control`.
    private func log(_ control: Control, _ name: String, into log: WidgetTestBox<[String]>) {
        control.rx.controlEvent(.editingDidBegin).subscribe(onNext: { log.value.append("\(name) began") }).disposed(by: bag)
        control.rx.controlEvent(.editingDidEnd).subscribe(onNext: { log.value.append("\(name) ended") }).disposed(by: bag)
    }

    func testBecomeFirstResponderTakesTheFocusFromTheOtherInputAndSendsTheEditingEvents() {
        let email = TextField()
        let notes = TextView()
        let search = SearchBar()
        let label = Label()
        let tree = widgetTestTree(["email": email, "notes": notes, "search": search, "label": label])
        let events = WidgetTestBox<[String]>([])
        log(email, "email", into: events)
        log(notes, "notes", into: events)
        XCTAssertTrue(email.becomeFirstResponder())
        XCTAssertTrue(email.isFirstResponder)
        XCTAssertEqual(widgetTestChanges(tree), ["email.focused = true"])
        XCTAssertTrue(email.becomeFirstResponder(), "already: nothing more")
        XCTAssertTrue(notes.becomeFirstResponder())
        XCTAssertFalse(email.isFirstResponder)
        XCTAssertEqual(events.value, ["email began", "email ended", "notes began"])
        XCTAssertEqual(widgetTestChanges(tree), ["email.focused = false", "notes.focused = true"])
        XCTAssertTrue(search.canBecomeFirstResponder)
        XCTAssertFalse(label.canBecomeFirstResponder)
        XCTAssertFalse(label.becomeFirstResponder())
        search.isEnabled = false
        XCTAssertFalse(search.becomeFirstResponder(), "a disabled input cannot take the focus")
        XCTAssertTrue(notes.isFirstResponder)
    }

    func testResignAndEndEditingSendEditingDidEndOnce() {
        let email = TextField()
        let button = Button()
        let tree = widgetTestTree(["email": email, "button": button])
        let events = WidgetTestBox<[String]>([])
        log(email, "email", into: events)
        email.becomeFirstResponder()
        XCTAssertTrue(email.resignFirstResponder())
        XCTAssertTrue(email.resignFirstResponder())
        XCTAssertEqual(events.value, ["email began", "email ended"])
        email.becomeFirstResponder()
        // endEditing on any widget of the scene (Bindery's screens are flat).
        XCTAssertTrue(button.endEditing(true))
        XCTAssertFalse(email.isFirstResponder)
        XCTAssertEqual(events.value, ["email began", "email ended", "email began", "email ended"])
        // A scene's root view, registered by the server.
        let root = View()
        tree.setEditingRoot(root)
        email.becomeFirstResponder()
        root.endEditing(false)
        XCTAssertFalse(email.isFirstResponder)
        XCTAssertEqual(events.value.count, 6)
    }

    func testTheUsersFocusEventsKeepIsFirstResponderTrueAndAreNotSentTwice() throws {
        let email = TextField()
        let name = TextField()
        let tree = widgetTestTree(["email": email, "name": name])
        let events = WidgetTestBox<[String]>([])
        log(email, "email", into: events)
        log(name, "name", into: events)
        // The user focuses, types, leaves: as before, plus the state.
        try email.sendUserEvent(.editingDidBegin)
        XCTAssertTrue(email.isFirstResponder)
        XCTAssertEqual(widgetTestChanges(tree), [], "the user's own focus is not sent back")
        try email.sendUserEvent(.editingDidEnd, value: .string("a@b"))
        XCTAssertFalse(email.isFirstResponder)
        XCTAssertEqual(events.value, ["email began", "email ended"])
        XCTAssertEqual(widgetTestChanges(tree), ["email.text = \"a@b\""])
        // The server focuses: the client's focus report that follows is not sent again.
        events.value = []
        email.becomeFirstResponder()
        try email.sendUserEvent(.editingDidBegin)
        XCTAssertEqual(events.value, ["email began"])
        // The server moves the focus on: the client's blur report of email (with its text)
        // applies the text but is not sent again; name's focus report neither.
        name.becomeFirstResponder()
        try email.sendUserEvent(.editingDidEnd, value: .string("x@y"))
        try name.sendUserEvent(.editingDidBegin)
        XCTAssertEqual(events.value, ["email began", "email ended", "name began"])
        XCTAssertEqual(email.text, "x@y")
        // The user then leaves name: sent.
        try name.sendUserEvent(.editingDidEnd)
        XCTAssertEqual(events.value.last, "name ended")
        // An end with no begin before (older clients) is sent, as it always was.
        try email.sendUserEvent(.editingDidEnd)
        XCTAssertEqual(events.value.last, "email ended")
    }

    func testAUsersFocusElsewhereClearsTheServersIdeaOfTheFocus() throws {
        let email = TextField()
        let name = TextField()
        let tree = widgetTestTree(["email": email, "name": name])
        email.becomeFirstResponder()
        try name.sendUserEvent(.editingDidBegin)
        XCTAssertFalse(email.isFirstResponder, "the browser has one focus")
        XCTAssertTrue(name.isFirstResponder)
        XCTAssertEqual(widgetTestChanges(tree), ["email.focused = true"],
                       "the server's own move stays recorded; the user's focus is not sent back")
    }

    func testSnapshotsOfTextInputsCarryFocused() {
        XCTAssertEqual(TextField().snapshot()["focused"], .bool(false))
        XCTAssertEqual(TextView().snapshot()["focused"], .bool(false))
        XCTAssertEqual(SearchBar().snapshot()["focused"], .bool(false))
        XCTAssertNil(Slider().snapshot()["focused"])
    }

    /// The editing root does not keep its tree alive (nor does the tree hold a weak
    /// reference's side table), a root outliving its tree ends nothing, and a root given
    /// to a new tree ends editing there.
    func testAnEditingRootOutlivingItsTreeEndsNothingAndCanMoveToANewTree() {
        let root = View()
        let email = TextField()
        weak var oldTree: WidgetTree?
        do {
            let tree = widgetTestTree(["email": email])
            oldTree = tree
            tree.setEditingRoot(root)
            tree.setEditingRoot(root)
            email.becomeFirstResponder()
        }
        XCTAssertNil(oldTree, "the editing root must not keep its tree")
        XCTAssertTrue(root.endEditing(true), "a root whose tree is gone ends nothing")
        XCTAssertTrue(email.isFirstResponder)

        let name = TextField()
        let tree = widgetTestTree(["name": name])
        tree.setEditingRoot(root)
        name.becomeFirstResponder()
        root.endEditing(false)
        XCTAssertFalse(name.isFirstResponder)
    }

    /// The root finds its tree after the tree's widgets change, a second root works and
    /// stays when the first goes, and a root that moved on is not cleared by its old tree.
    func testEditingRootsAreFoundAfterTheTreeChangesAndWhenRootsComeAndGo() throws {
        let email = TextField()
        let tree = widgetTestTree(["email": email])
        let root = View()
        tree.setEditingRoot(root)
        let name = TextField()
        try tree.add(name, id: "name")
        tree.remove(email)
        name.becomeFirstResponder()
        root.endEditing(true)
        XCTAssertFalse(name.isFirstResponder, "found after widgets were added and removed")

        var first: View? = View()
        let second = View()
        tree.setEditingRoot(first!)
        tree.setEditingRoot(second)
        first = nil
        name.becomeFirstResponder()
        second.endEditing(true)
        XCTAssertFalse(name.isFirstResponder, "a second root stays when the first goes")
        name.becomeFirstResponder()
        root.endEditing(true)
        XCTAssertFalse(name.isFirstResponder, "and so does the first one set")

        let other = TextField()
        do {
            let oldTree = widgetTestTree(["other": TextField()])
            oldTree.setEditingRoot(second)
            oldTree.setEditingRoot(root)
            tree.setEditingRoot(second)
            tree.setEditingRoot(root)
        }
        try tree.add(other, id: "other")
        other.becomeFirstResponder()
        second.endEditing(true)
        XCTAssertFalse(other.isFirstResponder, "moved back: the old tree's end leaves it")
        other.becomeFirstResponder()
        root.endEditing(true)
        XCTAssertFalse(other.isFirstResponder)
    }
}
