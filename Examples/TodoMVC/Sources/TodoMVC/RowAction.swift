import RxCore
import RxWidgets

/// An action on one row of a list, reported by the row's id.
///
/// A `ListView`'s rows send no events of their own (a `TableView`'s do, `rx.itemSelected`
/// and `rx.itemDeleted`, but the browser client does not draw tables yet, and a todo's
/// checkbox is neither), so a row action travels through a hidden text field: the page
/// sends the row's id as that field's text with Return
/// (`client.send("toggleTodo", "editingDidEndOnExit", "t3")`), and ``rowIDs`` emits it.
public final class RowAction {
    /// The hidden field the page sends row ids to; list it among the scene's widgets.
    public let field = TextField()

    /// A hidden field (the auto-rendered page does not show it).
    public init() {
        field.isHidden = true
    }

    /// The id of each row the action was sent for, as it arrives.
    public var rowIDs: Observable<String> {
        field.rx.controlEvent(.editingDidEndOnExit)
            .map { [weak field] in field?.text ?? "" }
            .filter { !$0.isEmpty }
    }
}
