import Foundation

/// What a ``TableView`` shows, as the wire carries it: the sections (key, header,
/// footer) and every row, flat, each naming its section's key.
struct TableContent {
    var sections: [ListRow]
    var rows: [ListRow]
    /// The flat index of each section's first row.
    var sectionStarts: [Int]

    init(sections: [ListRow] = [], rows: [ListRow] = [], sectionStarts: [Int] = []) {
        self.sections = sections
        self.rows = rows
        self.sectionStarts = sectionStarts
    }

    /// A section's wire row: `{"id": key, "header": ..., "footer": ...}` (titles only
    /// when present).
    static func section(key: String, header: String?, footer: String?) -> ListRow {
        var fields: [String: WidgetValue] = [:]
        if let header { fields[RowField.header] = .string(header) }
        if let footer { fields[RowField.footer] = .string(footer) }
        return ListRow(id: key, fields: fields)
    }

    /// A row's wire row: the cell's fields, its section's key, and `canEdit` /
    /// `canMove` when `false`.
    static func row(key: String, sectionKey: String, cell: TableViewCell, canEdit: Bool, canMove: Bool) -> ListRow {
        var fields = cell.rowFields
        fields[RowField.section] = .string(sectionKey)
        if !canEdit { fields[RowField.canEdit] = .bool(false) }
        if canMove { fields[RowField.canMove] = .bool(true) }
        return ListRow(id: key, fields: fields)
    }

    /// Everything `dataSource` says, keyed by identity when it can (and its keys are
    /// unique), by position otherwise.
    static func load(from dataSource: TableViewDataSource?, for table: TableView) -> TableContent {
        guard let dataSource else { return TableContent() }
        let keyed = dataSource as? TableViewKeyedDataSource
        if let keyed, let content = load(from: dataSource, for: table, keys: keyed) {
            return content
        }
        return load(from: dataSource, for: table, keys: nil)!
    }

    private static func load(from dataSource: TableViewDataSource, for table: TableView,
                             keys: TableViewKeyedDataSource?) -> TableContent? {
        var content = TableContent()
        var seenSections = Set<String>()
        var seenRows = Set<String>()
        for section in 0..<max(0, dataSource.numberOfSections(in: table)) {
            let sectionKey = keys?.tableView(table, keyForSection: section) ?? String(section)
            guard seenSections.insert(sectionKey).inserted else { return nil }
            content.sections.append(self.section(
                key: sectionKey,
                header: dataSource.tableView(table, titleForHeaderInSection: section),
                footer: dataSource.tableView(table, titleForFooterInSection: section)))
            content.sectionStarts.append(content.rows.count)
            for row in 0..<max(0, dataSource.tableView(table, numberOfRowsInSection: section)) {
                let indexPath = IndexPath(row: row, section: section)
                let key = keys?.tableView(table, keyForRowAt: indexPath) ?? "\(section).\(row)"
                guard seenRows.insert(key).inserted else { return nil }
                content.rows.append(self.row(
                    key: key, sectionKey: sectionKey,
                    cell: dataSource.tableView(table, cellForRowAt: indexPath),
                    canEdit: dataSource.tableView(table, canEditRowAt: indexPath),
                    canMove: dataSource.tableView(table, canMoveRowAt: indexPath)))
            }
        }
        return content
    }

    /// Moves the row at flat index `from` (in section `fromSection`) to `destination`,
    /// counted after removing it, renaming its section when it changes.
    mutating func moveRow(from: Int, fromSection: Int, to destination: IndexPath) {
        var row = rows.remove(at: from)
        for section in (fromSection + 1)..<sectionStarts.count { sectionStarts[section] -= 1 }
        let target = sectionStarts[destination.section] + destination.row
        if destination.section != fromSection {
            row[RowField.section] = .string(sections[destination.section].id)
        }
        rows.insert(row, at: target)
        for section in (destination.section + 1)..<sectionStarts.count { sectionStarts[section] += 1 }
    }
}
