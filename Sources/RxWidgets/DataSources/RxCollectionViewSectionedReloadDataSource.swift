import RxCore

/// A sectioned data source that reloads the collection view for each new array of
/// sections, as RxDataSources' `RxCollectionViewSectionedReloadDataSource` (items keyed
/// by position; the selection is cleared, as `reloadData` does).
open class RxCollectionViewSectionedReloadDataSource<Section: SectionModelType>
    : CollectionViewSectionedDataSource<Section>, RxCollectionViewDataSourceType {
    /// Each element is the whole list of sections.
    public typealias Element = [Section]

    /// Shows each list of sections; errors go to `Hooks.bindingErrorHandler`.
    open func collectionView(_ collectionView: CollectionView, observedEvent: Event<[Section]>) {
        Binder(self) { dataSource, sections in
            dataSource.setSections(sections)
            collectionView.reloadData()
        }.on(observedEvent)
    }
}
