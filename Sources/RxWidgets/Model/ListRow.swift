/// One row of a ``ListView``: a unique key and named fields (`{"id": "repo-1", "name":
/// "repo-1", "author": "author-1"}` on the wire).
public struct ListRow: Hashable, Sendable, Identifiable {
    /// The row's key, unique within its list.
    public var id: String
    /// The row's fields, by name.
    public var fields: [String: WidgetValue]

    /// A row keyed `id` with `fields`.
    public init(id: String, fields: [String: WidgetValue] = [:]) {
        self.id = id
        self.fields = fields
    }

    /// The field named `name`.
    public subscript(name: String) -> WidgetValue? {
        get { fields[name] }
        set { fields[name] = newValue }
    }
}

/// One keyed edit of a list; a sequence of them, applied in order, turns one list into
/// another (see ``ListRow/changes(from:to:)``).
public enum ListChange: Hashable, Sendable {
    /// Removes `count` rows starting at `index`.
    case remove(index: Int, count: Int)
    /// Inserts `rows` at `index`.
    case insert(index: Int, rows: [ListRow])
    /// Replaces the row at `index` (same id, new fields).
    case update(index: Int, row: ListRow)
    /// Moves the row at `from` to `to` (the index after removing it).
    case move(from: Int, to: Int)
}

extension ListRow {
    /// Keyed edits that turn `old` into `new`: removals first (from the end), then, in
    /// the new order, moves, inserts (consecutive new rows together) and updates.
    /// `nil` when either list has duplicate ids (then send the whole list).
    ///
    /// Appending twenty rows gives one `insert`; changing one row gives one `update`.
    public static func changes(from old: [ListRow], to new: [ListRow]) -> [ListChange]? {
        let oldIDs = Set(old.map(\.id))
        let newIDs = Set(new.map(\.id))
        guard oldIDs.count == old.count, newIDs.count == new.count else { return nil }

        var changes: [ListChange] = []
        var current = old

        // Removals, from the end so earlier indices stay valid; runs grouped.
        var index = current.count - 1
        while index >= 0 {
            guard !newIDs.contains(current[index].id) else {
                index -= 1
                continue
            }
            var start = index
            while start > 0 && !newIDs.contains(current[start - 1].id) { start -= 1 }
            changes.append(.remove(index: start, count: index - start + 1))
            current.removeSubrange(start...index)
            index = start - 1
        }

        // Then walk the new order.
        var position = 0
        while position < new.count {
            let row = new[position]
            if !oldIDs.contains(row.id) {
                var end = position + 1
                while end < new.count && !oldIDs.contains(new[end].id) { end += 1 }
                let run = Array(new[position..<end])
                changes.append(.insert(index: position, rows: run))
                current.insert(contentsOf: run, at: position)
                position = end
                continue
            }
            if current[position].id != row.id,
               let from = current[position...].firstIndex(where: { $0.id == row.id }) {
                changes.append(.move(from: from, to: position))
                current.insert(current.remove(at: from), at: position)
            }
            if current[position] != row {
                changes.append(.update(index: position, row: row))
                current[position] = row
            }
            position += 1
        }
        return changes
    }

    /// `rows` with `changes` applied in order (what a client does with them).
    public static func applying(_ changes: [ListChange], to rows: [ListRow]) -> [ListRow] {
        var rows = rows
        for change in changes {
            switch change {
            case .remove(let index, let count): rows.removeSubrange(index..<(index + count))
            case .insert(let index, let inserted): rows.insert(contentsOf: inserted, at: index)
            case .update(let index, let row): rows[index] = row
            case .move(let from, let to): rows.insert(rows.remove(at: from), at: to)
            }
        }
        return rows
    }
}
