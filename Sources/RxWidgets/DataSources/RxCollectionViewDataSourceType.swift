import RxCore

/// A collection data source that `rx.items(dataSource:)` feeds, as RxCocoa's: each
/// element (or error) of the bound sequence is handed to ``collectionView(_:observedEvent:)``.
public protocol RxCollectionViewDataSourceType {
    /// What the bound sequence sends (an array of items, of sections, ...).
    associatedtype Element

    /// The bound sequence sent `observedEvent`: update the model and the collection view.
    func collectionView(_ collectionView: CollectionView, observedEvent: Event<Element>)
}
