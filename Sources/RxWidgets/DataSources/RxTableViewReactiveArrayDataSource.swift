import Foundation
import RxCore

/// The one-section data source behind `rx.items { tableView, row, element in ... }`
/// and `rx.items(cellIdentifier:cellType:)`, as RxCocoa's: each array replaces the
/// items and reloads the table (rows keyed by position, selection cleared, as
/// `reloadData` does).
open class RxTableViewReactiveArrayDataSource<Element>: TableViewDataSource, SectionedViewDataSourceType {
    /// Makes the cell for `element` at `row`.
    public typealias CellFactory = (TableView, Int, Element) -> TableViewCell

    /// The items shown; `nil` before the first array arrives.
    public private(set) var itemModels: [Element]?
    /// Makes each row's cell.
    public let cellFactory: CellFactory

    /// A data source making cells with `cellFactory`.
    public init(cellFactory: @escaping CellFactory) {
        self.cellFactory = cellFactory
    }

    /// The item at `index`, if any.
    public func modelAtIndex(_ index: Int) -> Element? {
        guard let itemModels, itemModels.indices.contains(index) else { return nil }
        return itemModels[index]
    }

    /// The item of the row at `indexPath`.
    ///
    /// - Throws: ``RxDataSourceError/itemsNotYetBound`` before the first array,
    ///   ``RxDataSourceError/outOfBounds(indexPath:)`` for no such row.
    public func model(at indexPath: IndexPath) throws -> Any {
        try arrayModel(itemModels, at: indexPath)
    }

    /// Replaces the items and reloads `tableView`.
    open func tableView(_ tableView: TableView, observedElements: [Element]) {
        itemModels = observedElements
        tableView.reloadData()
    }

    // MARK: TableViewDataSource

    /// One section.
    public func numberOfSections(in tableView: TableView) -> Int { 1 }

    /// The number of items.
    public func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int {
        itemModels?.count ?? 0
    }

    /// The factory's cell for the item.
    public func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        cellFactory(tableView, indexPath.row, itemModels![indexPath.row])
    }

    /// Rows can move (RxCocoa reports the move through `rx.itemMoved`; the items
    /// themselves are the bound sequence's to change).
    public func tableView(_ tableView: TableView, canMoveRowAt indexPath: IndexPath) -> Bool { true }
}

/// ``RxTableViewReactiveArrayDataSource`` fed by a sequence of any `Sequence` of items.
public final class RxTableViewReactiveArrayDataSourceSequenceWrapper<Items: Sequence>
    : RxTableViewReactiveArrayDataSource<Items.Element>, RxTableViewDataSourceType {
    /// Each element is a whole list of items.
    public typealias Element = Items

    /// A data source making cells with `cellFactory`.
    public override init(cellFactory: @escaping CellFactory) {
        super.init(cellFactory: cellFactory)
    }

    /// Shows each list as the table's rows; errors go to `Hooks.bindingErrorHandler`.
    public func tableView(_ tableView: TableView, observedEvent: Event<Items>) {
        Binder(self) { dataSource, items in
            dataSource.tableView(tableView, observedElements: Array(items))
        }.on(observedEvent)
    }
}
