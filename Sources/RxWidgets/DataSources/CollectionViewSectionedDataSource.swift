import Foundation

/// A collection data source over sections, as RxDataSources'
/// `CollectionViewSectionedDataSource`: closures make the cells and the section headers
/// (and footers), and say what can move; it keeps the current sections
/// (``sectionModels``), and a user's move updates them without a reload.
open class CollectionViewSectionedDataSource<Section: SectionModelType>: CollectionViewDataSource, SectionedViewDataSourceType {
    /// The items' type.
    public typealias Item = Section.Item
    /// Makes the cell for an item.
    public typealias ConfigureCell = (CollectionViewSectionedDataSource<Section>, CollectionView, IndexPath, Item) -> CollectionViewCell
    /// Makes a section's header or footer (the `String` is its kind).
    public typealias ConfigureSupplementaryView =
        (CollectionViewSectionedDataSource<Section>, CollectionView, String, IndexPath) -> CollectionReusableView?
    /// Called after the user moved an item (the model is already updated).
    public typealias MoveItem = (CollectionViewSectionedDataSource<Section>, IndexPath, IndexPath) -> Void
    /// Whether an item can move.
    public typealias CanMoveItemAtIndexPath = (CollectionViewSectionedDataSource<Section>, IndexPath) -> Bool

    /// Makes each item's cell.
    open var configureCell: ConfigureCell
    /// Makes headers and footers (default none).
    open var configureSupplementaryView: ConfigureSupplementaryView?
    /// Told of each move.
    open var moveItem: MoveItem
    /// Whether an item can move (default: none).
    open var canMoveItemAtIndexPath: CanMoveItemAtIndexPath

    private var snapshot = SectionSnapshot<Section>()

    /// A data source with RxDataSources' defaults: no headers, nothing moves.
    public init(
        configureCell: @escaping ConfigureCell,
        configureSupplementaryView: ConfigureSupplementaryView? = nil,
        moveItem: @escaping MoveItem = { _, _, _ in },
        canMoveItemAtIndexPath: @escaping CanMoveItemAtIndexPath = { _, _ in false }
    ) {
        self.configureCell = configureCell
        self.configureSupplementaryView = configureSupplementaryView
        self.moveItem = moveItem
        self.canMoveItemAtIndexPath = canMoveItemAtIndexPath
    }

    /// The current sections (with any moves the user made).
    open var sectionModels: [Section] {
        snapshot.sectionModels
    }

    /// The section at `section`.
    open subscript(section: Int) -> Section {
        snapshot[section]
    }

    /// The item at `indexPath` (settable: replaces it in the model, not on screen).
    open subscript(indexPath: IndexPath) -> Item {
        get { snapshot[indexPath] }
        set { snapshot[indexPath] = newValue }
    }

    /// The item at `indexPath`.
    ///
    /// - Throws: ``RxDataSourceError/outOfBounds(indexPath:)`` when there is none.
    open func model(at indexPath: IndexPath) throws -> Any {
        guard snapshot.contains(indexPath) else { throw RxDataSourceError.outOfBounds(indexPath: indexPath) }
        return self[indexPath]
    }

    /// Replaces the sections (the collection view is not told; reload it).
    open func setSections(_ sections: [Section]) {
        snapshot.set(sections)
    }

    // MARK: CollectionViewDataSource

    /// The number of sections.
    open func numberOfSections(in collectionView: CollectionView) -> Int { snapshot.count }

    /// The number of items in `section`.
    open func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int {
        snapshot.count(inSection: section)
    }

    /// ``configureCell``'s cell for the item.
    open func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell {
        configureCell(self, collectionView, indexPath, self[indexPath])
    }

    /// ``configureSupplementaryView``'s view, if any.
    open func collectionView(_ collectionView: CollectionView, viewForSupplementaryElementOfKind kind: String,
                             at indexPath: IndexPath) -> CollectionReusableView? {
        configureSupplementaryView?(self, collectionView, kind, indexPath)
    }

    /// ``canMoveItemAtIndexPath``.
    open func collectionView(_ collectionView: CollectionView, canMoveItemAt indexPath: IndexPath) -> Bool {
        canMoveItemAtIndexPath(self, indexPath)
    }

    /// Moves the item in the model, as the user moved it, then calls ``moveItem``.
    open func collectionView(_ collectionView: CollectionView, moveItemAt sourceIndexPath: IndexPath,
                             to destinationIndexPath: IndexPath) {
        snapshot.moveItem(at: sourceIndexPath, to: destinationIndexPath)
        moveItem(self, sourceIndexPath, destinationIndexPath)
    }
}
