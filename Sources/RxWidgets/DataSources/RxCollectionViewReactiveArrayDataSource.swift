import Foundation
import RxCore

/// The one-section data source behind `rx.items { collectionView, row, element in ... }`
/// and `rx.items(cellIdentifier:cellType:)`, as RxCocoa's: each array replaces the items
/// and reloads the collection view (items keyed by position, selection cleared).
open class RxCollectionViewReactiveArrayDataSource<Element>: CollectionViewDataSource, SectionedViewDataSourceType {
    /// Makes the cell for `element` at `row`.
    public typealias CellFactory = (CollectionView, Int, Element) -> CollectionViewCell

    /// The items shown; `nil` before the first array arrives.
    public private(set) var itemModels: [Element]?
    /// Makes each item's cell.
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

    /// The item at `indexPath`.
    ///
    /// - Throws: ``RxDataSourceError/itemsNotYetBound`` before the first array,
    ///   ``RxDataSourceError/outOfBounds(indexPath:)`` for no such item.
    public func model(at indexPath: IndexPath) throws -> Any {
        try arrayModel(itemModels, at: indexPath)
    }

    /// Replaces the items and reloads `collectionView`.
    open func collectionView(_ collectionView: CollectionView, observedElements: [Element]) {
        itemModels = observedElements
        collectionView.reloadData()
    }

    // MARK: CollectionViewDataSource

    /// One section.
    public func numberOfSections(in collectionView: CollectionView) -> Int { 1 }

    /// The number of items.
    public func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int {
        itemModels?.count ?? 0
    }

    /// The factory's cell for the item.
    public func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell {
        cellFactory(collectionView, indexPath.item, itemModels![indexPath.item])
    }
}

/// ``RxCollectionViewReactiveArrayDataSource`` fed by a sequence of any `Sequence` of items.
public final class RxCollectionViewReactiveArrayDataSourceSequenceWrapper<Items: Sequence>
    : RxCollectionViewReactiveArrayDataSource<Items.Element>, RxCollectionViewDataSourceType {
    /// Each element is a whole list of items.
    public typealias Element = Items

    /// A data source making cells with `cellFactory`.
    public override init(cellFactory: @escaping CellFactory) {
        super.init(cellFactory: cellFactory)
    }

    /// Shows each list as the items; errors go to `Hooks.bindingErrorHandler`.
    public func collectionView(_ collectionView: CollectionView, observedEvent: Event<Items>) {
        Binder(self) { dataSource, items in
            dataSource.collectionView(collectionView, observedElements: Array(items))
        }.on(observedEvent)
    }
}
