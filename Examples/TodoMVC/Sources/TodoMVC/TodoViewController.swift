import Bindery
import RxCore
import RxWidgets

/// The TodoMVC scene: widgets for the page in Public/index.html (attach mode, each bound
/// with `data-bind="<id>"`), bound to a ``TodoListViewModel``.
public final class TodoViewController: ViewController, Scene {
    // MARK: Widgets (ids are the names in sceneWidgets)

    /// "What needs to be done?": Return adds the todo.
    public let newTodo = TextField()
    /// Checks or unchecks every todo; checked when all are completed.
    public let toggleAll = Switch()
    /// The todos the filter shows: rows `{title, completed, editing}` keyed by todo id.
    public let todoList = ListView()
    /// The list's section, hidden while there are no todos.
    public let main = View()
    /// The footer (count, filters, clear), hidden while there are no todos.
    public let footer = View()
    /// The number of active todos (the page shows it in `<strong>`).
    public let activeCount = Label()
    /// "items left" or "item left", after the number.
    public let itemsLeft = Label()
    /// All / Active / Completed (the page sets it from its URL).
    public let filter = SegmentedControl(items: TodoFilter.allCases.map(\.title))
    /// Removes the completed todos; shown only when there are some.
    public let clearCompleted = Button()

    /// Row actions, by todo id (see ``RowAction``): the checkbox, the × button, and a
    /// double-click on the title.
    public let toggleTodo = RowAction()
    public let destroyTodo = RowAction()
    public let editTodo = RowAction()
    /// The edit field of the todo being edited: Return or leaving it saves its text.
    public let editor = TextField()
    /// Escape in the edit field: leaves the title as it was.
    public let cancelEdit = Button()

    /// The state and rules (public so tests can look at them).
    public let viewModel: TodoListViewModel
    private let disposeBag = DisposeBag()

    /// A TodoMVC scene over `viewModel` (a fresh, empty list by default).
    public init(viewModel: TodoListViewModel = TodoListViewModel()) {
        self.viewModel = viewModel
        super.init()
    }

    /// Every widget under the id the page binds.
    public var sceneWidgets: [(id: String, widget: View)] {
        [("newTodo", newTodo), ("toggleAll", toggleAll), ("todoList", todoList), ("main", main),
         ("footer", footer), ("activeCount", activeCount), ("itemsLeft", itemsLeft), ("filter", filter), ("clearCompleted", clearCompleted),
         ("toggleTodo", toggleTodo.field), ("destroyTodo", destroyTodo.field), ("editTodo", editTodo.field),
         ("editor", editor), ("cancelEdit", cancelEdit)]
    }

    /// For the auto-rendered page (`/scene/todomvc`); the app's own page is Public/index.html.
    public var sceneLayout: SceneLayout? {
        .column([.widget("newTodo"), .row([.widget("toggleAll"), .widget("todoList")]),
                 .row([.widget("activeCount"), .widget("itemsLeft"), .widget("filter"), .widget("clearCompleted")])])
    }

    override public func viewDidLoad() {
        super.viewDidLoad()
        newTodo.placeholder = "What needs to be done?"
        clearCompleted.setTitle("Clear completed", for: .normal)
        editor.isHidden = true
        cancelEdit.isHidden = true
        let viewModel = self.viewModel

        // Inputs: what the user did → view model commands.
        disposeBag.insert(
            newTodo.rx.controlEvent(.editingDidEndOnExit)
                .subscribe(onNext: { [weak self] in
                    guard let self else { return }
                    if viewModel.add(title: newTodo.text ?? "") { newTodo.text = "" }
                }),
            toggleAll.rx.isOn.changed.subscribe(onNext: { viewModel.setAllCompleted($0) }),
            filter.rx.selectedSegmentIndex.changed
                .compactMap { TodoFilter(rawValue: $0) }
                .bind(to: viewModel.filter),
            clearCompleted.rx.tap.subscribe(onNext: { viewModel.clearCompleted() }),
            toggleTodo.rowIDs.subscribe(onNext: { viewModel.toggle(id: $0) }),
            destroyTodo.rowIDs.subscribe(onNext: { viewModel.destroy(id: $0) }),
            editTodo.rowIDs.subscribe(onNext: { viewModel.beginEditing(id: $0) }),
            // Return and leaving the field both save; after one, the other finds no edit.
            editor.rx.controlEvent([.editingDidEndOnExit, .editingDidEnd])
                .subscribe(onNext: { [weak self] in viewModel.commitEdit(title: self?.editor.text ?? "") }),
            cancelEdit.rx.tap.subscribe(onNext: { viewModel.cancelEdit() })
        )

        // Outputs: state → widgets.
        disposeBag.insert(
            viewModel.visibleTodos.bind(to: todoList.rx.items) { _, _, item in
                ListRow(id: item.todo.id, fields: [
                    "title": .string(item.todo.title),
                    "completed": .bool(item.todo.completed),
                    "editing": .bool(item.isEditing),
                ])
            },
            viewModel.hasTodos.map { !$0 }.bind(to: main.rx.isHidden),
            viewModel.hasTodos.map { !$0 }.bind(to: footer.rx.isHidden),
            viewModel.activeCount.map(String.init).bind(to: activeCount.rx.text),
            viewModel.itemsLeftText.bind(to: itemsLeft.rx.text),
            viewModel.hasCompleted.map { !$0 }.bind(to: clearCompleted.rx.isHidden),
            viewModel.allCompleted.bind(to: toggleAll.rx.isOn),
            viewModel.filter.map(\.rawValue).bind(to: filter.rx.selectedSegmentIndex)
        )
    }
}

/// Registers the TodoMVC scene as `todomvc` (one list per browser session).
public func registerTodoMVC(_ registry: SceneRegistry) {
    registry.register("todomvc", title: "TodoMVC",
                      description: "The TodoMVC app; its own page is at /, this one is drawn by Bindery.") { TodoViewController() }
}
