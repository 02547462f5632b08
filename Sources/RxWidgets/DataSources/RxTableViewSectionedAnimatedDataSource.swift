import Foundation
import RxCore

/// A sectioned data source that diffs each new array of sections against the last by
/// identity, as RxDataSources' `RxTableViewSectionedAnimatedDataSource`: rows are keyed by
/// their items' identities, so the client gets keyed inserts, deletes, moves and updates
/// of just the rows that changed (one insert into 10,000 rows is one small patch), the
/// selection stays on its rows, and only new or changed items are configured again.
/// The first array, and data with duplicate identities (as RxDataSources, after its
/// debug assertion), reload instead.
open class RxTableViewSectionedAnimatedDataSource<Section: AnimatableSectionModelType>
    : TableViewSectionedDataSource<Section>, RxTableViewDataSourceType, TableViewKeyedDataSource {
    /// Each element is the whole list of sections.
    public typealias Element = [Section]

    /// How rows animate (kept for UIKit code; the client decides how to animate).
    public var animationConfiguration: AnimationConfiguration

    /// Rows as last shown, by key, with the item they were made from.
    private var shown: [String: (item: Item, row: ListRow)] = [:]
    private var dataSet = false
    /// Whether the rows shown are keyed by identity (not positions, after duplicates).
    private var shownIsKeyed = false

    /// A data source with RxDataSources' defaults (see ``TableViewSectionedDataSource``).
    public init(
        animationConfiguration: AnimationConfiguration = AnimationConfiguration(),
        configureCell: @escaping ConfigureCell,
        titleForHeaderInSection: @escaping TitleForHeaderInSection = { _, _ in nil },
        titleForFooterInSection: @escaping TitleForFooterInSection = { _, _ in nil },
        canEditRowAtIndexPath: @escaping CanEditRowAtIndexPath = { _, _ in true },
        canMoveRowAtIndexPath: @escaping CanMoveRowAtIndexPath = { _, _ in true }
    ) {
        self.animationConfiguration = animationConfiguration
        super.init(configureCell: configureCell, titleForHeaderInSection: titleForHeaderInSection,
                   titleForFooterInSection: titleForFooterInSection, canEditRowAtIndexPath: canEditRowAtIndexPath,
                   canMoveRowAtIndexPath: canMoveRowAtIndexPath)
    }

    /// Shows each list of sections: a reload the first time, keyed changes after.
    /// Errors go to `Hooks.bindingErrorHandler`.
    open func tableView(_ tableView: TableView, observedEvent: Event<[Section]>) {
        Binder(self) { dataSource, sections in
            dataSource.show(sections, in: tableView)
        }.on(observedEvent)
    }

    private func show(_ sections: [Section], in tableView: TableView) {
        setSections(sections)
        // Diff's rule: duplicate identities (now, or in the rows shown) cannot be diffed.
        let keyed = Self.identitiesAreUnique(sections)
        guard dataSet, keyed, shownIsKeyed else {
            dataSet = true
            shownIsKeyed = keyed
            tableView.reloadData()
            remember(tableView)
            return
        }
        // Keyed update: rebuild the rows, configuring only the cells of new or changed items.
        var content = TableContent()
        var next: [String: (item: Item, row: ListRow)] = [:]
        next.reserveCapacity(shown.count)
        for (sectionIndex, section) in sections.enumerated() {
            let sectionKey = key(of: section)
            content.sections.append(TableContent.section(
                key: sectionKey,
                header: self.tableView(tableView, titleForHeaderInSection: sectionIndex),
                footer: self.tableView(tableView, titleForFooterInSection: sectionIndex)))
            content.sectionStarts.append(content.rows.count)
            for (itemIndex, item) in section.items.enumerated() {
                let indexPath = IndexPath(row: itemIndex, section: sectionIndex)
                let rowKey = key(of: item)
                let canEdit = self.tableView(tableView, canEditRowAt: indexPath)
                let canMove = self.tableView(tableView, canMoveRowAt: indexPath)
                var row: ListRow
                if let previous = shown[rowKey], previous.item == item {
                    row = previous.row
                    // Written only when changed: a write copies the fields (10,000 rows).
                    let section = WidgetValue.string(sectionKey)
                    let edit: WidgetValue? = canEdit ? nil : .bool(false)
                    let move: WidgetValue? = canMove ? .bool(true) : nil
                    if row[RowField.section] != section { row[RowField.section] = section }
                    if row[RowField.canEdit] != edit { row[RowField.canEdit] = edit }
                    if row[RowField.canMove] != move { row[RowField.canMove] = move }
                } else {
                    row = TableContent.row(key: rowKey, sectionKey: sectionKey,
                                           cell: self.tableView(tableView, cellForRowAt: indexPath),
                                           canEdit: canEdit, canMove: canMove)
                }
                content.rows.append(row)
                next[rowKey] = (item, row)
            }
        }
        shown = next
        tableView.setContent(content, keepingSelection: true)
    }

    private static func identitiesAreUnique(_ sections: [Section]) -> Bool {
        var sectionIdentities = Set<Section.Identity>()
        var itemIdentities = Set<Item.Identity>()
        for section in sections {
            guard sectionIdentities.insert(section.identity).inserted else { return false }
            for item in section.items where !itemIdentities.insert(item.identity).inserted {
                return false
            }
        }
        return true
    }

    /// Notes the rows a reload made, so the next update can reuse them (none when the
    /// reload keyed rows by position, after duplicate identities).
    private func remember(_ tableView: TableView) {
        shown = [:]
        let items = sectionModels.flatMap(\.items)
        guard items.count == tableView.rows.count else { return }
        for (item, row) in zip(items, tableView.rows) where row.id == key(of: item) {
            shown[row.id] = (item, row)
        }
    }

    private func key(of section: Section) -> String { "\(section.identity)" }
    private func key(of item: Item) -> String { "\(item.identity)" }

    // MARK: TableViewKeyedDataSource

    func tableView(_ tableView: TableView, keyForSection section: Int) -> String {
        key(of: self[section])
    }

    func tableView(_ tableView: TableView, keyForRowAt indexPath: IndexPath) -> String {
        key(of: self[indexPath])
    }
}

/// How inserted, reloaded and deleted rows animate, as RxDataSources'
/// `AnimationConfiguration` (the client picks the actual animation).
public struct AnimationConfiguration: Sendable {
    /// For inserted rows.
    public let insertAnimation: TableView.RowAnimation
    /// For updated rows.
    public let reloadAnimation: TableView.RowAnimation
    /// For deleted rows.
    public let deleteAnimation: TableView.RowAnimation

    /// A configuration; every animation `.automatic` by default.
    public init(insertAnimation: TableView.RowAnimation = .automatic,
                reloadAnimation: TableView.RowAnimation = .automatic,
                deleteAnimation: TableView.RowAnimation = .automatic) {
        self.insertAnimation = insertAnimation
        self.reloadAnimation = reloadAnimation
        self.deleteAnimation = deleteAnimation
    }
}
