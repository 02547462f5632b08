import Foundation
import RxCore

extension Reactive where Base: TableView {
    /// Binds arrays of elements to the table's rows, each made into a cell by
    /// `cellFactory(tableView, row, element)`, as RxCocoa's `rx.items`:
    ///
    /// ```swift
    /// items.bind(to: tableView.rx.items) { tableView, row, element in
    ///     let cell = TableViewCell(style: .subtitle, reuseIdentifier: nil)
    ///     cell.textLabel?.text = element.title
    ///     return cell
    /// }
    /// ```
    /// Each array reloads the table (rows keyed by position; the selection is cleared).
    public func items<Items: Sequence, Source: ObservableType>(
        _ source: Source
    ) -> (_ cellFactory: @escaping (TableView, Int, Items.Element) -> TableViewCell) -> Disposable
    where Source.Element == Items {
        { cellFactory in
            let dataSource = RxTableViewReactiveArrayDataSourceSequenceWrapper<Items>(cellFactory: cellFactory)
            return items(dataSource: dataSource)(source)
        }
    }

    /// Binds arrays of elements to the table's rows, each in a cell of `cellType`
    /// dequeued with `cellIdentifier` (register it first) and set up by
    /// `configureCell(row, element, cell)`, as RxCocoa's `rx.items(cellIdentifier:cellType:)`.
    public func items<Items: Sequence, Cell: TableViewCell, Source: ObservableType>(
        cellIdentifier: String,
        cellType: Cell.Type = Cell.self
    ) -> (_ source: Source) -> (_ configureCell: @escaping (Int, Items.Element, Cell) -> Void) -> Disposable
    where Source.Element == Items {
        { source in
            { configureCell in
                let dataSource = RxTableViewReactiveArrayDataSourceSequenceWrapper<Items> { tableView, row, element in
                    let dequeued = tableView.dequeueReusableCell(withIdentifier: cellIdentifier,
                                                                 for: IndexPath(row: row, section: 0))
                    let cell = dequeued as? Cell ?? Cell(style: .default, reuseIdentifier: cellIdentifier)
                    configureCell(row, element, cell)
                    return cell
                }
                return items(dataSource: dataSource)(source)
            }
        }
    }

    /// Binds the sequence to the table through `dataSource` (RxDataSources'
    /// `RxTableViewSectionedReloadDataSource` and `...AnimatedDataSource`, or your own),
    /// as RxCocoa's `rx.items(dataSource:)`. The binding keeps the data source alive and
    /// makes it the table's ``TableView/dataSource`` until disposed. Errors go to
    /// `Hooks.bindingErrorHandler`; completion keeps the rows.
    public func items<DataSource: RxTableViewDataSourceType & TableViewDataSource, Source: ObservableType>(
        dataSource: DataSource
    ) -> (_ source: Source) -> Disposable where DataSource.Element == Source.Element {
        { source in
            bindItems(source, dataSource: dataSource, installed: dataSource) { dataSource, view, event in
                dataSource.tableView(view, observedEvent: event)
            }
        }
    }

    // MARK: - Row events

    /// The index path of each row the user selects (after the table selected it), as
    /// RxCocoa's (`tableView(_:didSelectRowAt:)`).
    public var itemSelected: ControlEvent<IndexPath> { hubEvent(\.itemSelectedHub) }

    /// The index path of each row the user deselects (tapping a selected row of a
    /// multiple-selection table, or selecting another row in a single-selection one:
    /// then this fires first).
    public var itemDeselected: ControlEvent<IndexPath> { hubEvent(\.itemDeselectedHub) }

    /// The index path of each row the user deletes. The table does not remove it:
    /// change the bound items.
    public var itemDeleted: ControlEvent<IndexPath> { hubEvent(\.itemDeletedHub) }

    /// The index path of each row whose insert control the user taps.
    public var itemInserted: ControlEvent<IndexPath> { hubEvent(\.itemInsertedHub) }

    /// Each move of a row by the user, after the table and its data source moved it.
    public var itemMoved: ControlEvent<ItemMovedEvent> { hubEvent(\.itemMovedHub) }

    /// The index path of each row whose detail button the user taps.
    public var itemAccessoryButtonTapped: ControlEvent<IndexPath> { hubEvent(\.itemAccessoryButtonTappedHub) }

    /// The model of each row the user selects, as RxCocoa's: `itemSelected` mapped
    /// through ``model(at:)``; a model of another type ends the sequence with an error.
    public func modelSelected<T>(_ modelType: T.Type) -> ControlEvent<T> {
        modelEvent(itemSelected)
    }

    /// The model of each row the user deselects.
    public func modelDeselected<T>(_ modelType: T.Type) -> ControlEvent<T> {
        modelEvent(itemDeselected)
    }

    /// The model of each row the user deletes (read before the bound items change).
    public func modelDeleted<T>(_ modelType: T.Type) -> ControlEvent<T> {
        modelEvent(itemDeleted)
    }

    /// The model of the row at `indexPath`, from the data source an `rx.items` binding
    /// installed.
    ///
    /// - Throws: ``RxDataSourceError`` when no `rx.items` binding feeds the table, there
    ///   is no such row, or the model is not a `T`.
    public func model<T>(at indexPath: IndexPath) throws -> T {
        try boundModel(at: indexPath)
    }

    // MARK: - Properties

    /// Sets editing mode (`setEditing(_:animated: false)`).
    public var isEditing: Binder<Bool> {
        Binder(base) { table, editing in
            table.setEditing(editing, animated: false)
        }
    }
}
