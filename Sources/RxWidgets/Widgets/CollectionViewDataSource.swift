import Foundation

/// What a ``CollectionView`` asks for its sections and items, as
/// `UICollectionViewDataSource`. The `rx.items` bindings install one; set
/// ``CollectionView/dataSource`` yourself (held weakly) and call
/// ``CollectionView/reloadData()`` for a hand-written one.
public protocol CollectionViewDataSource: AnyObject {
    /// The number of sections. Default 1.
    func numberOfSections(in collectionView: CollectionView) -> Int
    /// The number of items in `section`.
    func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int
    /// The cell for the item at `indexPath`.
    func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell
    /// The section's header or footer (`kind` is ``CollectionView/elementKindSectionHeader``
    /// or ``CollectionView/elementKindSectionFooter``; `indexPath.section` names the
    /// section), asked for when the flow layout's `headerReferenceSize` /
    /// `footerReferenceSize` is not zero, as in UIKit. Its ``CollectionReusableView/textLabel``
    /// text is the section's title. Default `nil`: none.
    func collectionView(_ collectionView: CollectionView, viewForSupplementaryElementOfKind kind: String,
                        at indexPath: IndexPath) -> CollectionReusableView?
    /// Whether the user may move the item. Default `false`.
    func collectionView(_ collectionView: CollectionView, canMoveItemAt indexPath: IndexPath) -> Bool
    /// The user moved an item: update the model (the collection moved its item already).
    /// Default: nothing.
    func collectionView(_ collectionView: CollectionView, moveItemAt sourceIndexPath: IndexPath,
                        to destinationIndexPath: IndexPath)
}

extension CollectionViewDataSource {
    /// One section.
    public func numberOfSections(in collectionView: CollectionView) -> Int { 1 }
    /// No header or footer.
    public func collectionView(_ collectionView: CollectionView, viewForSupplementaryElementOfKind kind: String,
                               at indexPath: IndexPath) -> CollectionReusableView? { nil }
    /// No item moves.
    public func collectionView(_ collectionView: CollectionView, canMoveItemAt indexPath: IndexPath) -> Bool { false }
    /// Nothing.
    public func collectionView(_ collectionView: CollectionView, moveItemAt sourceIndexPath: IndexPath,
                               to destinationIndexPath: IndexPath) {}
}

/// A data source naming its sections and items by identity (the animated one), so item
/// keys survive inserts and moves; without it keys are positions (`"0"`, `"0.3"`).
protocol CollectionViewKeyedDataSource: CollectionViewDataSource {
    /// The key of section `section`, unique among the sections.
    func collectionView(_ collectionView: CollectionView, keyForSection section: Int) -> String
    /// The key of the item at `indexPath`, unique among all items.
    func collectionView(_ collectionView: CollectionView, keyForItemAt indexPath: IndexPath) -> String
}

extension TableContent {
    /// An item's wire row: the cell's fields, its section's key, `canMove` when `true`.
    static func item(key: String, sectionKey: String, cell: CollectionViewCell, canMove: Bool) -> ListRow {
        var fields = cell.itemFields
        fields[RowField.section] = .string(sectionKey)
        if canMove { fields[RowField.canMove] = .bool(true) }
        return ListRow(id: key, fields: fields)
    }

    /// A section's wire row from the data source's header and footer views.
    static func section(key: String, index: Int, of collectionView: CollectionView,
                        from dataSource: CollectionViewDataSource) -> ListRow {
        let path = IndexPath(item: 0, section: index)
        let layout = collectionView.collectionViewLayout
        func title(_ kind: String) -> String? {
            guard layout.showsSupplementaryViews(ofKind: kind) else { return nil }
            return dataSource.collectionView(collectionView, viewForSupplementaryElementOfKind: kind, at: path)?.textLabel.text
        }
        return section(key: key, header: title(CollectionView.elementKindSectionHeader),
                       footer: title(CollectionView.elementKindSectionFooter))
    }

    /// Everything `dataSource` says, keyed by identity when it can (keys unique), by
    /// position otherwise.
    static func load(from dataSource: CollectionViewDataSource?, for collectionView: CollectionView) -> TableContent {
        guard let dataSource else { return TableContent() }
        if let keyed = dataSource as? CollectionViewKeyedDataSource,
           let content = load(from: dataSource, for: collectionView, keys: keyed) {
            return content
        }
        return load(from: dataSource, for: collectionView, keys: nil)!
    }

    private static func load(from dataSource: CollectionViewDataSource, for view: CollectionView,
                             keys: CollectionViewKeyedDataSource?) -> TableContent? {
        var content = TableContent()
        var seenSections = Set<String>()
        var seenItems = Set<String>()
        for section in 0..<max(0, dataSource.numberOfSections(in: view)) {
            let sectionKey = keys?.collectionView(view, keyForSection: section) ?? String(section)
            guard seenSections.insert(sectionKey).inserted else { return nil }
            content.sections.append(self.section(key: sectionKey, index: section, of: view, from: dataSource))
            content.sectionStarts.append(content.rows.count)
            for item in 0..<max(0, dataSource.collectionView(view, numberOfItemsInSection: section)) {
                let indexPath = IndexPath(item: item, section: section)
                let key = keys?.collectionView(view, keyForItemAt: indexPath) ?? "\(section).\(item)"
                guard seenItems.insert(key).inserted else { return nil }
                content.rows.append(self.item(key: key, sectionKey: sectionKey,
                                              cell: dataSource.collectionView(view, cellForItemAt: indexPath),
                                              canMove: dataSource.collectionView(view, canMoveItemAt: indexPath)))
            }
        }
        return content
    }
}
