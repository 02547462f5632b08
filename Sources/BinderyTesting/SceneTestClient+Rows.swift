import Bindery

/// Row events of tables and collection views (PROTOCOL.md, "Row events"), with `seq`
/// kept for you. Rows are named by key, as the client names them: a `ListRow`'s `id` in
/// ``SceneTestWidget/rows``.
extension SceneTestClient {
    /// Taps the row keyed `row` of the table or collection view `target` (`itemSelected`).
    @discardableResult
    public func select(row: String, in target: String) -> SceneTestAnswer {
        sendEvent("itemSelected", to: target, value: nil, row: row)
    }

    /// Deselects the row keyed `row` (`itemDeselected`; a multiple-selection view's tap
    /// on a selected row).
    @discardableResult
    public func deselect(row: String, in target: String) -> SceneTestAnswer {
        sendEvent("itemDeselected", to: target, value: nil, row: row)
    }

    /// Commits the delete of the row keyed `row` (`itemDeleted`: the row's delete button,
    /// or a swipe). As in UIKit the table does not remove it: the app's model does.
    @discardableResult
    public func delete(row: String, in target: String) -> SceneTestAnswer {
        sendEvent("itemDeleted", to: target, value: nil, row: row)
    }

    /// Commits the insert of the row keyed `row` (`itemInserted`, for a row whose editing
    /// style is `insert`).
    @discardableResult
    public func insert(row: String, in target: String) -> SceneTestAnswer {
        sendEvent("itemInserted", to: target, value: nil, row: row)
    }

    /// Drags the row keyed `row` to position `toIndex` of the section keyed `toSection`
    /// (`itemMoved`; the index is counted after removing the moved row). Only while the
    /// table is editing, for a row that can move.
    @discardableResult
    public func move(row: String, in target: String, toSection: String, toIndex: Int) -> SceneTestAnswer {
        sendEvent("itemMoved", to: target, value: nil, row: row, toSection: toSection, toIndex: toIndex)
    }

    /// Taps the accessory button of the row keyed `row` (`itemAccessoryButtonTapped`).
    @discardableResult
    public func tapAccessory(ofRow row: String, in target: String) -> SceneTestAnswer {
        sendEvent("itemAccessoryButtonTapped", to: target, value: nil, row: row)
    }
}
