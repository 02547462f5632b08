import Foundation
import RxCore

extension Reactive where Base: CollectionView {
    /// Binds arrays of elements to the collection's items, each made into a cell by
    /// `cellFactory(collectionView, row, element)`, as RxCocoa's `rx.items`. Each array
    /// reloads the items (keyed by position; the selection is cleared).
    public func items<Items: Sequence, Source: ObservableType>(
        _ source: Source
    ) -> (_ cellFactory: @escaping (CollectionView, Int, Items.Element) -> CollectionViewCell) -> Disposable
    where Source.Element == Items {
        { cellFactory in
            let dataSource = RxCollectionViewReactiveArrayDataSourceSequenceWrapper<Items>(cellFactory: cellFactory)
            return items(dataSource: dataSource)(source)
        }
    }

    /// Binds arrays of elements to the items, each in a cell of `cellType` dequeued with
    /// `cellIdentifier` (register it first) and set up by `configureCell(row, element, cell)`,
    /// as RxCocoa's `rx.items(cellIdentifier:cellType:)`.
    public func items<Items: Sequence, Cell: CollectionViewCell, Source: ObservableType>(
        cellIdentifier: String,
        cellType: Cell.Type = Cell.self
    ) -> (_ source: Source) -> (_ configureCell: @escaping (Int, Items.Element, Cell) -> Void) -> Disposable
    where Source.Element == Items {
        { source in
            { configureCell in
                let dataSource = RxCollectionViewReactiveArrayDataSourceSequenceWrapper<Items> { view, row, element in
                    let dequeued = view.dequeueReusableCell(withReuseIdentifier: cellIdentifier,
                                                            for: IndexPath(item: row, section: 0))
                    let cell = dequeued as? Cell ?? Cell(reuseIdentifier: cellIdentifier)
                    configureCell(row, element, cell)
                    return cell
                }
                return items(dataSource: dataSource)(source)
            }
        }
    }

    /// Binds the sequence through `dataSource` (RxDataSources'
    /// `RxCollectionViewSectionedReloadDataSource` and `...AnimatedDataSource`, or your
    /// own), as RxCocoa's `rx.items(dataSource:)`. The binding keeps the data source alive
    /// and makes it the collection's ``CollectionView/dataSource`` until disposed. Errors go
    /// to `Hooks.bindingErrorHandler`; completion keeps the items.
    public func items<DataSource: RxCollectionViewDataSourceType & CollectionViewDataSource, Source: ObservableType>(
        dataSource: DataSource
    ) -> (_ source: Source) -> Disposable where DataSource.Element == Source.Element {
        { source in
            bindItems(source, dataSource: dataSource, installed: dataSource) { dataSource, view, event in
                dataSource.collectionView(view, observedEvent: event)
            }
        }
    }

    // MARK: - Item events

    /// The index path of each item the user selects (after it is selected), as RxCocoa's
    /// (`collectionView(_:didSelectItemAt:)`).
    public var itemSelected: ControlEvent<IndexPath> { hubEvent(\.itemSelectedHub) }

    /// The index path of each item the user deselects (tapping a selected item of a
    /// multiple-selection collection, or selecting another in a single-selection one:
    /// then this fires first).
    public var itemDeselected: ControlEvent<IndexPath> { hubEvent(\.itemDeselectedHub) }

    /// Each move of an item by the user, after the collection and its data source moved it.
    public var itemMoved: ControlEvent<ItemMovedEvent> { hubEvent(\.itemMovedHub) }

    /// The model of each item the user selects: `itemSelected` through ``model(at:)``; a
    /// model of another type ends the sequence with an error.
    public func modelSelected<T>(_ modelType: T.Type) -> ControlEvent<T> {
        modelEvent(itemSelected)
    }

    /// The model of each item the user deselects.
    public func modelDeselected<T>(_ modelType: T.Type) -> ControlEvent<T> {
        modelEvent(itemDeselected)
    }

    /// The model of the item at `indexPath`, from the data source an `rx.items` binding
    /// installed.
    ///
    /// - Throws: ``RxDataSourceError`` when no `rx.items` binding feeds the collection,
    ///   there is no such item, or the model is not a `T`.
    public func model<T>(at indexPath: IndexPath) throws -> T {
        try boundModel(at: indexPath)
    }
}
