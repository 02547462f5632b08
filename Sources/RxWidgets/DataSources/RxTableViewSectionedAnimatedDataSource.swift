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

    /// What the table shows, for the next update (loop-confined, as the table): the
    /// sections as last shown, their rows flat, each row's `canEdit`/`canMove`, and every
    /// item's identity.
    private var shownSections: [Section] = []
    private var shownRows: [ListRow] = []
    private var shownFlags: [RowFlags] = []
    private var shownIdentities = Set<Item.Identity>()
    /// Every shown row's key: two identities may describe alike, and keys must stay unique.
    private var shownKeys = Set<String>()
    /// Whether the caches above no longer match the table (after a user's move).
    private var shownIsStale = false
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
        if shownIsStale, shownIsKeyed { remember(sectionModels, tableView) }
        setSections(sections)
        guard dataSet, shownIsKeyed, let content = keyedUpdate(sections, in: tableView) else {
            // The first data, or duplicate identities (now, or in the rows shown): Diff's
            // rule says they cannot be diffed, so reload.
            let keyed = sections.identitiesAreUnique
            dataSet = true
            shownIsKeyed = keyed
            tableView.reloadData()
            remember(sections, tableView)
            return
        }
        tableView.setContent(content, keepingSelection: true)
    }

    /// The rows for `sections` made from the rows shown: cells configured only for new
    /// or changed items; `nil` when identities repeat. Items equal at both ends of a
    /// section (its unchanged head and tail) are matched by position, so one insert into
    /// 10,000 rows compares items and hashes only the changed stretch's identities; a
    /// stretch that is the old one turned by one row (a row moved from one end to the
    /// other) hashes nothing.
    private func keyedUpdate(_ sections: [Section], in tableView: TableView) -> TableContent? {
        var sectionIdentities = Set<Section.Identity>(minimumCapacity: sections.count)
        for section in sections where !sectionIdentities.insert(section.identity).inserted { return nil }
        let sameSections = sections.count == shownSections.count
            && zip(sections, shownSections).allSatisfy { $0.identity == $1.identity }
        var oldStarts: [Int] = []
        var start = 0
        for section in shownSections {
            oldStarts.append(start)
            start += section.items.count
        }
        // Each section's changed stretch (all of it when the sections changed).
        let stretches: [Stretch] = sections.indices.map { index in
            sameSections ? Stretch(shownSections[index].items, sections[index].items)
                         : Stretch(head: 0, oldEnd: 0, newEnd: sections[index].items.count, kind: .general)
        }
        // Old items of the general stretches, by identity: a new item may reuse its row.
        var reusable: [Item.Identity: (item: Item, flat: Int)] = [:]
        if sameSections {
            for index in 0..<stretches.count where stretches[index].kind == .general {
                let stretch = stretches[index]
                let items = shownSections[index].items
                for position in stretch.head..<stretch.oldEnd {
                    reusable[items[position].identity] = (items[position], oldStarts[index] + position)
                }
            }
        } else {
            reusable.reserveCapacity(shownRows.count)
            for index in 0..<shownSections.count {
                let items = shownSections[index].items
                for position in 0..<items.count {
                    reusable[items[position].identity] = (items[position], oldStarts[index] + position)
                }
            }
        }
        // New items of the general stretches: unique, and not the identity of a kept item.
        var fresh = Set<Item.Identity>()
        for index in 0..<stretches.count where stretches[index].kind == .general {
            let stretch = stretches[index]
            let items = sections[index].items
            for position in stretch.head..<stretch.newEnd {
                let identity = items[position].identity
                guard fresh.insert(identity).inserted else { return nil }
                if reusable[identity] == nil, shownIdentities.contains(identity) { return nil }
            }
        }

        var content = TableContent()
        var sectionKeys = Set<String>(minimumCapacity: sections.count)
        var freshKeys = Set<String>()
        content.rows.reserveCapacity(sections.reduce(0) { $0 + $1.items.count })
        var flags: [RowFlags] = []
        flags.reserveCapacity(content.rows.capacity)
        for sectionIndex in 0..<sections.count {
            let section = sections[sectionIndex]
            let sectionKey = key(of: section)
            guard sectionKeys.insert(sectionKey).inserted else { return nil }
            content.sections.append(TableContent.section(
                key: sectionKey,
                header: self.tableView(tableView, titleForHeaderInSection: sectionIndex),
                footer: self.tableView(tableView, titleForFooterInSection: sectionIndex)))
            content.sectionStarts.append(content.rows.count)
            let stretch = stretches[sectionIndex]
            let oldStart = sameSections ? oldStarts[sectionIndex] : 0
            // Indices, not `enumerated()`: this generic code is not specialised, and each
            // step of an enumerated iterator looks up type metadata.
            let items = section.items
            for itemIndex in 0..<items.count {
                let item = items[itemIndex]
                let indexPath = IndexPath(row: itemIndex, section: sectionIndex)
                let rowFlags = RowFlags(canEdit: self.tableView(tableView, canEditRowAt: indexPath),
                                        canMove: self.tableView(tableView, canMoveRowAt: indexPath))
                var row: ListRow
                if sameSections, let old = stretch.oldPosition(of: itemIndex) {
                    // Unchanged, same section: only the flags may differ.
                    row = shownRows[oldStart + old]
                    if shownFlags[oldStart + old] != rowFlags { rowFlags.write(to: &row) }
                } else if let previous = reusable[item.identity], previous.item == item {
                    row = shownRows[previous.flat]
                    // Written only when changed: a write copies the row's fields.
                    let sectionValue = WidgetValue.string(sectionKey)
                    if row[RowField.section] != sectionValue { row[RowField.section] = sectionValue }
                    if shownFlags[previous.flat] != rowFlags { rowFlags.write(to: &row) }
                } else {
                    row = TableContent.row(key: key(of: item), sectionKey: sectionKey,
                                           cell: self.tableView(tableView, cellForRowAt: indexPath),
                                           canEdit: rowFlags.canEdit, canMove: rowFlags.canMove)
                }
                if !(sameSections && stretch.oldPosition(of: itemIndex) != nil) {
                    guard freshKeys.insert(row.id).inserted else { return nil }
                }
                content.rows.append(row)
                flags.append(rowFlags)
            }
        }
        if sameSections {
            var leavingKeys = Set<String>()
            for index in 0..<stretches.count where stretches[index].kind == .general {
                let stretch = stretches[index]
                for position in stretch.head..<stretch.oldEnd { leavingKeys.insert(shownRows[oldStarts[index] + position].id) }
            }
            for key in freshKeys where shownKeys.contains(key) && !leavingKeys.contains(key) { return nil }
            shownKeys.subtract(leavingKeys)
            shownKeys.formUnion(freshKeys)
            for index in 0..<stretches.count where stretches[index].kind == .general {
                let stretch = stretches[index]
                let items = shownSections[index].items
                for position in stretch.head..<stretch.oldEnd { shownIdentities.remove(items[position].identity) }
            }
            shownIdentities.formUnion(fresh)
        } else {
            shownKeys = freshKeys
            shownIdentities = fresh
        }
        shownSections = sections
        shownRows = content.rows
        shownFlags = flags
        return content
    }

    /// Notes the rows a reload made (or the table shows after a user's move), so the next
    /// update can reuse them (none when the rows are keyed by position, after duplicate
    /// identities).
    private func remember(_ sections: [Section], _ tableView: TableView) {
        shownIsStale = false
        shownSections = []
        shownRows = []
        shownFlags = []
        shownIdentities = []
        shownKeys = []
        guard shownIsKeyed else { return }
        let rows = tableView.rows
        var flat = 0
        for section in sections {
            for item in section.items {
                guard flat < rows.count, rows[flat].id == key(of: item) else {
                    shownIsKeyed = false
                    return
                }
                shownIdentities.insert(item.identity)
                shownKeys.insert(rows[flat].id)
                flat += 1
            }
        }
        guard flat == rows.count else {
            shownIsKeyed = false
            shownIdentities = []
            shownKeys = []
            return
        }
        shownSections = sections
        shownRows = rows
        shownFlags = rows.map { RowFlags(canEdit: $0[RowField.canEdit] != .bool(false),
                                         canMove: $0[RowField.canMove] == .bool(true)) }
    }

    /// Moves the item in the model, as the user moved its row; the next update first
    /// re-reads what the table shows.
    override open func tableView(_ tableView: TableView, moveRowAt sourceIndexPath: IndexPath,
                                 to destinationIndexPath: IndexPath) {
        super.tableView(tableView, moveRowAt: sourceIndexPath, to: destinationIndexPath)
        shownIsStale = true
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

/// A row's `canEdit` and `canMove`, as last asked.
private struct RowFlags: Equatable {
    var canEdit: Bool
    var canMove: Bool

    /// Writes both into `row`'s fields (`canEdit` only when `false`, `canMove` only when `true`).
    func write(to row: inout ListRow) {
        let edit: WidgetValue? = canEdit ? nil : .bool(false)
        let move: WidgetValue? = canMove ? .bool(true) : nil
        if row[RowField.canEdit] != edit { row[RowField.canEdit] = edit }
        if row[RowField.canMove] != move { row[RowField.canMove] = move }
    }
}

/// The changed stretch of one section's items: positions `head..<oldEnd` of the old
/// items became `head..<newEnd` of the new ones; the rest is unchanged, in order.
private struct Stretch {
    enum Kind: Equatable {
        /// Matched by identity.
        case general
        /// The old stretch with its last item moved first.
        case lastMovedFirst
        /// The old stretch with its first item moved last.
        case firstMovedLast
    }

    let head: Int
    let oldEnd: Int
    let newEnd: Int
    let kind: Kind

    init(head: Int, oldEnd: Int, newEnd: Int, kind: Kind) {
        self.head = head
        self.oldEnd = oldEnd
        self.newEnd = newEnd
        self.kind = kind
    }

    /// The stretch between the longest equal head and tail of `old` and `new`.
    init<Item: IdentifiableType & Equatable>(_ old: [Item], _ new: [Item]) {
        let shorter = min(old.count, new.count)
        var head = 0
        while head < shorter, Self.same(old[head], new[head]) { head += 1 }
        var tail = 0
        while tail < shorter - head, Self.same(old[old.count - 1 - tail], new[new.count - 1 - tail]) { tail += 1 }
        let (oldEnd, newEnd) = (old.count - tail, new.count - tail)
        var kind = Kind.general
        if oldEnd == newEnd, newEnd - head > 1 {
            let (first, last) = (head, newEnd - 1)
            if Self.same(old[last], new[first]), (first..<last).allSatisfy({ Self.same(old[$0], new[$0 + 1]) }) {
                kind = .lastMovedFirst
            } else if Self.same(old[first], new[last]), (first..<last).allSatisfy({ Self.same(old[$0 + 1], new[$0]) }) {
                kind = .firstMovedLast
            }
        }
        self.init(head: head, oldEnd: oldEnd, newEnd: newEnd, kind: kind)
    }

    private static func same<Item: IdentifiableType & Equatable>(_ lhs: Item, _ rhs: Item) -> Bool {
        lhs == rhs && lhs.identity == rhs.identity
    }

    /// Where the new item at `position` was, when it is matched by position.
    func oldPosition(of position: Int) -> Int? {
        if position < head { return position }
        if position >= newEnd { return oldEnd + (position - newEnd) }
        switch kind {
        case .general: return nil
        case .lastMovedFirst: return position == head ? newEnd - 1 : position - 1
        case .firstMovedLast: return position == newEnd - 1 ? head : position + 1
        }
    }
}
