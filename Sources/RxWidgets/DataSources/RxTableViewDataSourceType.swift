import RxCore

/// A table data source that `rx.items(dataSource:)` feeds, as RxCocoa's: each element
/// (or error) of the bound sequence is handed to ``tableView(_:observedEvent:)``.
public protocol RxTableViewDataSourceType {
    /// What the bound sequence sends (an array of items, of sections, ...).
    associatedtype Element

    /// The bound sequence sent `observedEvent`: update the model and the table.
    func tableView(_ tableView: TableView, observedEvent: Event<Element>)
}
