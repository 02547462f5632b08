import Foundation
import RxCore

/// TodoMVC's state and rules, with no widgets in sight (MVVM): commands change the state,
/// observables describe what to show. The view controller binds one to the other, and
/// tests can drive either this class directly or the whole scene.
///
/// Loop-confined, as every scene: the server calls it from its event loop only.
public final class TodoListViewModel {
    // MARK: State

    /// Every todo, in the order they were added.
    public let todos = BehaviorRelay<[Todo]>(value: [])
    /// The list's filter (the page keeps it in its URL: `#/active`).
    public let filter = BehaviorRelay<TodoFilter>(value: .all)
    /// The todo being edited (double-click on its title), if any.
    public let editingID = BehaviorRelay<String?>(value: nil)

    private var nextID = 1

    /// An empty list.
    public init() {}

    // MARK: Outputs

    /// The todos the filter lets through, with which one is being edited.
    public var visibleTodos: Observable<[(todo: Todo, isEditing: Bool)]> {
        Observable.combineLatest(todos, filter, editingID) { todos, filter, editingID in
            todos.filter(filter.includes).map { ($0, $0.id == editingID) }
        }
    }

    /// How many todos are not completed yet.
    public var activeCount: Observable<Int> {
        todos.map { $0.filter { !$0.completed }.count }.distinctUntilChanged()
    }

    /// The words after the count: "item left" for 1, "items left" otherwise.
    public var itemsLeftText: Observable<String> {
        activeCount.map { $0 == 1 ? "item left" : "items left" }.distinctUntilChanged()
    }

    /// Whether there is any todo at all (TodoMVC hides its list and footer otherwise).
    public var hasTodos: Observable<Bool> {
        todos.map { !$0.isEmpty }.distinctUntilChanged()
    }

    /// Whether some todo is completed ("Clear completed" is shown only then).
    public var hasCompleted: Observable<Bool> {
        todos.map { $0.contains { $0.completed } }.distinctUntilChanged()
    }

    /// Whether every todo is completed (the "toggle all" checkbox's state).
    public var allCompleted: Observable<Bool> {
        todos.map { !$0.isEmpty && $0.allSatisfy(\.completed) }.distinctUntilChanged()
    }

    // MARK: Commands

    /// Adds a todo titled `title` trimmed; nothing for a blank title. Returns whether it
    /// added one (the new-todo field is cleared only then).
    @discardableResult
    public func add(title: String) -> Bool {
        let title = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty else { return false }
        todos.accept(todos.value + [Todo(id: "t\(nextID)", title: title)])
        nextID += 1
        return true
    }

    /// Flips one todo between active and completed.
    public func toggle(id: String) {
        update(id) { $0.completed.toggle() }
    }

    /// Marks every todo completed (`true`) or active (`false`).
    public func setAllCompleted(_ completed: Bool) {
        todos.accept(todos.value.map { Todo(id: $0.id, title: $0.title, completed: completed) })
    }

    /// Removes one todo.
    public func destroy(id: String) {
        if editingID.value == id { editingID.accept(nil) }
        todos.accept(todos.value.filter { $0.id != id })
    }

    /// Removes every completed todo.
    public func clearCompleted() {
        todos.accept(todos.value.filter { !$0.completed })
    }

    /// Starts editing one todo (an unknown id is ignored: the todo may just have gone).
    public func beginEditing(id: String) {
        guard todos.value.contains(where: { $0.id == id }) else { return }
        editingID.accept(id)
    }

    /// Ends the edit with `title`: trimmed and saved, or the todo destroyed when blank.
    /// Without an edit under way (a blur after Return or Escape) it does nothing.
    public func commitEdit(title: String) {
        guard let id = editingID.value else { return }
        let title = title.trimmingCharacters(in: .whitespacesAndNewlines)
        editingID.accept(nil)
        if title.isEmpty {
            destroy(id: id)
        } else {
            update(id) { $0.title = title }
        }
    }

    /// Ends the edit leaving the title as it was (Escape).
    public func cancelEdit() {
        editingID.accept(nil)
    }

    private func update(_ id: String, _ change: (inout Todo) -> Void) {
        var todos = todos.value
        guard let index = todos.firstIndex(where: { $0.id == id }) else { return }
        change(&todos[index])
        self.todos.accept(todos)
    }
}
