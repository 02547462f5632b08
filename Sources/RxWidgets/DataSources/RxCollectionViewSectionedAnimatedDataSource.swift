import Foundation
import RxCore

/// A sectioned data source keyed by identity, as RxDataSources'
/// `RxCollectionViewSectionedAnimatedDataSource`: items are keyed by their identities,
/// so each new array of sections reaches the client as keyed inserts, removals, moves
/// and updates of just the items that changed; the selection stays on its items, and
/// only new or changed items are configured again. The first array, and data with
/// duplicate identities, reload instead.
open class RxCollectionViewSectionedAnimatedDataSource<Section: AnimatableSectionModelType>
    : CollectionViewSectionedDataSource<Section>, RxCollectionViewDataSourceType, CollectionViewKeyedDataSource {
    /// Each element is the whole list of sections.
    public typealias Element = [Section]

    /// How items animate (kept for UIKit code; the client decides).
    public var animationConfiguration: AnimationConfiguration

    /// Items as last shown, by key, with the item they were made from.
    private var shown: [String: (item: Item, row: ListRow)] = [:]
    private var dataSet = false
    private var shownIsKeyed = false

    /// A data source with RxDataSources' defaults (see ``CollectionViewSectionedDataSource``).
    public init(
        animationConfiguration: AnimationConfiguration = AnimationConfiguration(),
        configureCell: @escaping ConfigureCell,
        configureSupplementaryView: ConfigureSupplementaryView? = nil,
        moveItem: @escaping MoveItem = { _, _, _ in },
        canMoveItemAtIndexPath: @escaping CanMoveItemAtIndexPath = { _, _ in false }
    ) {
        self.animationConfiguration = animationConfiguration
        super.init(configureCell: configureCell, configureSupplementaryView: configureSupplementaryView,
                   moveItem: moveItem, canMoveItemAtIndexPath: canMoveItemAtIndexPath)
    }

    /// Shows each list of sections: a reload the first time, keyed changes after.
    /// Errors go to `Hooks.bindingErrorHandler`.
    open func collectionView(_ collectionView: CollectionView, observedEvent: Event<[Section]>) {
        Binder(self) { dataSource, sections in
            dataSource.show(sections, in: collectionView)
        }.on(observedEvent)
    }

    private func show(_ sections: [Section], in collectionView: CollectionView) {
        setSections(sections)
        let keyed = sections.identitiesAreUnique
        guard dataSet, keyed, shownIsKeyed else {
            dataSet = true
            shownIsKeyed = keyed
            collectionView.reloadData()
            remember(collectionView)
            return
        }
        var content = TableContent()
        var next: [String: (item: Item, row: ListRow)] = [:]
        next.reserveCapacity(shown.count)
        for (sectionIndex, section) in sections.enumerated() {
            let sectionKey = "\(section.identity)"
            content.sections.append(TableContent.section(key: sectionKey, index: sectionIndex, of: collectionView, from: self))
            content.sectionStarts.append(content.rows.count)
            for (itemIndex, item) in section.items.enumerated() {
                let indexPath = IndexPath(item: itemIndex, section: sectionIndex)
                let key = "\(item.identity)"
                let canMove = self.collectionView(collectionView, canMoveItemAt: indexPath)
                var row: ListRow
                if let previous = shown[key], previous.item == item {
                    row = previous.row
                    let section = WidgetValue.string(sectionKey)
                    let move: WidgetValue? = canMove ? .bool(true) : nil
                    if row[RowField.section] != section { row[RowField.section] = section }
                    if row[RowField.canMove] != move { row[RowField.canMove] = move }
                } else {
                    row = TableContent.item(key: key, sectionKey: sectionKey,
                                            cell: self.collectionView(collectionView, cellForItemAt: indexPath),
                                            canMove: canMove)
                }
                content.rows.append(row)
                next[key] = (item, row)
            }
        }
        shown = next
        collectionView.setContent(content, keepingSelection: true)
    }

    private func remember(_ collectionView: CollectionView) {
        shown = [:]
        let items = sectionModels.flatMap(\.items)
        guard items.count == collectionView.rows.count else { return }
        for (item, row) in zip(items, collectionView.rows) where row.id == "\(item.identity)" {
            shown[row.id] = (item, row)
        }
    }

    // MARK: CollectionViewKeyedDataSource

    func collectionView(_ collectionView: CollectionView, keyForSection section: Int) -> String {
        "\(self[section].identity)"
    }

    func collectionView(_ collectionView: CollectionView, keyForItemAt indexPath: IndexPath) -> String {
        "\(self[indexPath].identity)"
    }
}
