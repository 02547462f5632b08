/// One todo: what the list shows and what the view model edits.
public struct Todo: Equatable, Sendable {
    /// Stable id (`t1`, `t2`, …): the list row's key and what the page sends back.
    public let id: String
    /// The text, trimmed, never empty.
    public var title: String
    /// Done or not.
    public var completed: Bool

    /// A todo.
    public init(id: String, title: String, completed: Bool = false) {
        self.id = id
        self.title = title
        self.completed = completed
    }
}

/// Which todos the list shows: TodoMVC's routes `#/`, `#/active`, `#/completed`.
public enum TodoFilter: Int, CaseIterable, Sendable {
    /// Every todo (`#/`).
    case all
    /// Todos not completed (`#/active`).
    case active
    /// Completed todos (`#/completed`).
    case completed

    /// The filter's link text, also the segment title in the auto-rendered page.
    public var title: String {
        switch self {
        case .all: return "All"
        case .active: return "Active"
        case .completed: return "Completed"
        }
    }

    /// Whether `todo` is shown under this filter.
    public func includes(_ todo: Todo) -> Bool {
        switch self {
        case .all: return true
        case .active: return !todo.completed
        case .completed: return todo.completed
        }
    }
}
