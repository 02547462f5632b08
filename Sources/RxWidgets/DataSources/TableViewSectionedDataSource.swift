import Foundation

/// A table data source over sections, as RxDataSources' `TableViewSectionedDataSource`:
/// closures make the cells and say the titles and what can be edited or moved; it keeps
/// the current sections (``sectionModels``), and a user's move updates them, so the
/// model matches the rows without a reload.
open class TableViewSectionedDataSource<Section: SectionModelType>: TableViewDataSource, SectionedViewDataSourceType {
    /// The items' type.
    public typealias Item = Section.Item
    /// Makes the cell for an item.
    public typealias ConfigureCell = (TableViewSectionedDataSource<Section>, TableView, IndexPath, Item) -> TableViewCell
    /// A section's header title.
    public typealias TitleForHeaderInSection = (TableViewSectionedDataSource<Section>, Int) -> String?
    /// A section's footer title.
    public typealias TitleForFooterInSection = (TableViewSectionedDataSource<Section>, Int) -> String?
    /// Whether a row can be edited.
    public typealias CanEditRowAtIndexPath = (TableViewSectionedDataSource<Section>, IndexPath) -> Bool
    /// Whether a row can move.
    public typealias CanMoveRowAtIndexPath = (TableViewSectionedDataSource<Section>, IndexPath) -> Bool

    /// Makes each row's cell.
    open var configureCell: ConfigureCell
    /// Each section's header title (default none).
    open var titleForHeaderInSection: TitleForHeaderInSection
    /// Each section's footer title (default none).
    open var titleForFooterInSection: TitleForFooterInSection
    /// Whether a row can be edited (default: every row).
    open var canEditRowAtIndexPath: CanEditRowAtIndexPath
    /// Whether a row can move (default: every row).
    open var canMoveRowAtIndexPath: CanMoveRowAtIndexPath

    /// The sections' snapshot: their models and items, as the table shows them.
    private var snapshot = SectionSnapshot<Section>()

    /// A data source with RxDataSources' defaults: no titles, every row editable and movable.
    public init(
        configureCell: @escaping ConfigureCell,
        titleForHeaderInSection: @escaping TitleForHeaderInSection = { _, _ in nil },
        titleForFooterInSection: @escaping TitleForFooterInSection = { _, _ in nil },
        canEditRowAtIndexPath: @escaping CanEditRowAtIndexPath = { _, _ in true },
        canMoveRowAtIndexPath: @escaping CanMoveRowAtIndexPath = { _, _ in true }
    ) {
        self.configureCell = configureCell
        self.titleForHeaderInSection = titleForHeaderInSection
        self.titleForFooterInSection = titleForFooterInSection
        self.canEditRowAtIndexPath = canEditRowAtIndexPath
        self.canMoveRowAtIndexPath = canMoveRowAtIndexPath
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

    /// Replaces the sections (the table is not told; reload it).
    open func setSections(_ sections: [Section]) {
        snapshot.set(sections)
    }

    // MARK: TableViewDataSource

    /// The number of sections.
    open func numberOfSections(in tableView: TableView) -> Int { snapshot.count }

    /// The number of items in `section`.
    open func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int {
        snapshot.count(inSection: section)
    }

    /// ``configureCell``'s cell for the item.
    open func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        configureCell(self, tableView, indexPath, self[indexPath])
    }

    /// ``titleForHeaderInSection``.
    open func tableView(_ tableView: TableView, titleForHeaderInSection section: Int) -> String? {
        titleForHeaderInSection(self, section)
    }

    /// ``titleForFooterInSection``.
    open func tableView(_ tableView: TableView, titleForFooterInSection section: Int) -> String? {
        titleForFooterInSection(self, section)
    }

    /// ``canEditRowAtIndexPath``.
    open func tableView(_ tableView: TableView, canEditRowAt indexPath: IndexPath) -> Bool {
        canEditRowAtIndexPath(self, indexPath)
    }

    /// ``canMoveRowAtIndexPath``.
    open func tableView(_ tableView: TableView, canMoveRowAt indexPath: IndexPath) -> Bool {
        canMoveRowAtIndexPath(self, indexPath)
    }

    /// Moves the item in the model, as the user moved its row.
    open func tableView(_ tableView: TableView, moveRowAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath) {
        snapshot.moveItem(at: sourceIndexPath, to: destinationIndexPath)
    }
}
