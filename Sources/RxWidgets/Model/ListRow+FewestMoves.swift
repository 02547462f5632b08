extension ListRow {
    /// Keyed edits that turn `old` into `new` moving as few rows as possible: the rows
    /// that keep their relative order (a longest increasing run) stay, every other kept
    /// row moves once. Same removals, inserts and updates as ``changes(from:to:)``,
    /// whose walk may move many rows for one moved far (the first of 10,000 rows moved
    /// to the end is 9,999 moves there, one here). `nil` for duplicate ids, or when more
    /// than `maximumMoves` rows would move (each move searches the list; the whole list
    /// is then the better message anyway).
    ///
    /// Rows equal at both ends (a common head and tail) are set aside first: they neither
    /// move nor change, and the edits are those of the rows between, shifted, the same
    /// edits as without the shortcut. One insert into 10,000 rows compares rows (cheap for
    /// rows that share storage) and hashes only the ids: no row is searched, moved or
    /// copied. A single row moved to the other end of the changed stretch is one move
    /// without hashing at all.
    ///
    /// `idsAreUnique`: the caller guarantees both lists' ids are unique (a table's keys),
    /// so they are not checked; then nothing outside the changed stretch is hashed.
    public static func changesWithFewestMoves(from old: [ListRow], to new: [ListRow],
                                              maximumMoves: Int = 256, idsAreUnique: Bool = false) -> [ListChange]? {
        // Common head and tail, not overlapping in either list.
        var head = 0
        let shorter = Swift.min(old.count, new.count)
        while head < shorter && old[head] == new[head] { head += 1 }
        var tail = 0
        while tail < shorter - head && old[old.count - 1 - tail] == new[new.count - 1 - tail] { tail += 1 }
        let oldMiddle = old[head..<(old.count - tail)]
        let newMiddle = new[head..<(new.count - tail)]
        guard idsAreUnique || Self.idsAreUnique(old, middle: oldMiddle, other: newMiddle) else { return nil }
        if let rotation = rotation(from: oldMiddle, to: newMiddle) {
            return [rotation]
        }
        guard let ops = generalChangesWithFewestMoves(from: Array(oldMiddle), to: Array(newMiddle),
                                                      maximumMoves: maximumMoves, checkedUnique: true) else { return nil }
        return head == 0 ? ops : ops.map { $0.shifted(by: head) }
    }

    /// Whether `rows` has unique ids and so has `rows` with `middle` replaced by `other`
    /// (the rest of `rows` being kept as is).
    private static func idsAreUnique(_ rows: [ListRow], middle: ArraySlice<ListRow>, other: ArraySlice<ListRow>) -> Bool {
        var ids = Set<String>(minimumCapacity: rows.count)
        for row in rows where !ids.insert(row.id).inserted { return false }
        // `other`'s ids must be unique among themselves and not among the kept rows'.
        var otherIDs = Set<String>(minimumCapacity: other.count)
        for row in other where !otherIDs.insert(row.id).inserted { return false }
        var middleIDs = Set<String>(minimumCapacity: middle.count)
        for row in middle { middleIDs.insert(row.id) }
        for id in otherIDs where ids.contains(id) && !middleIDs.contains(id) { return false }
        return true
    }

    /// The one move that turns `old` into `new` when `new` is `old` rotated by one (the
    /// last row moved first, or the first moved last), with every row unchanged; what the
    /// general walk gives for it.
    private static func rotation(from old: ArraySlice<ListRow>, to new: ArraySlice<ListRow>) -> ListChange? {
        guard old.count == new.count, old.count > 1 else { return nil }
        let (first, last) = (old.startIndex, old.endIndex - 1)
        // First moved last before last moved first: for two rows both hold, and the walk
        // moves the first.
        if new[last] == old[first], old[(first + 1)...].elementsEqual(new[first..<last]) {
            return .move(from: first, to: last)
        }
        if new[first] == old[last], old[first..<last].elementsEqual(new[(first + 1)...]) {
            return .move(from: last, to: first)
        }
        return nil
    }

    /// ``changesWithFewestMoves(from:to:maximumMoves:)`` without the head-and-tail
    /// shortcut (tests compare the two).
    static func generalChangesWithFewestMoves(from old: [ListRow], to new: [ListRow], maximumMoves: Int,
                                              checkedUnique: Bool = false) -> [ListChange]? {
        let oldIDs = Set(old.map(\.id))
        let newIDs = Set(new.map(\.id))
        guard checkedUnique || (oldIDs.count == old.count && newIDs.count == new.count) else { return nil }

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

        // The kept rows' places in the new order; the longest increasing run stays.
        let kept = new.filter { oldIDs.contains($0.id) }
        var rank: [String: Int] = [:]
        rank.reserveCapacity(kept.count)
        for (position, row) in kept.enumerated() { rank[row.id] = position }
        let ranks = current.map { rank[$0.id]! }
        var settled = longestIncreasingRun(ranks)
        let movers = ranks.filter { settled.binarySearch($0) == nil }.sorted()
        guard movers.count <= maximumMoves else { return nil }
        for mover in movers {
            let from = current.firstIndex { $0.id == kept[mover].id }!
            let row = current.remove(at: from)
            // Right after the settled row that comes before it in the new order.
            let slot = settled.insertionPoint(of: mover)
            let to = slot == 0 ? 0 : current.firstIndex { $0.id == kept[settled[slot - 1]].id }! + 1
            current.insert(row, at: to)
            changes.append(.move(from: from, to: to))
            settled.insert(mover, at: slot)
        }

        // The kept rows are in the new order: add the new rows (runs together), update the rest.
        var position = 0
        while position < new.count {
            if !oldIDs.contains(new[position].id) {
                var end = position + 1
                while end < new.count && !oldIDs.contains(new[end].id) { end += 1 }
                let run = Array(new[position..<end])
                changes.append(.insert(index: position, rows: run))
                current.insert(contentsOf: run, at: position)
                position = end
                continue
            }
            if current[position] != new[position] {
                changes.append(.update(index: position, row: new[position]))
                current[position] = new[position]
            }
            position += 1
        }
        return changes
    }

    /// A longest strictly increasing subsequence of `values` (patience sorting).
    private static func longestIncreasingRun(_ values: [Int]) -> [Int] {
        var tails: [Int] = []          // index in `values` of the smallest tail of each length
        var previous = [Int](repeating: -1, count: values.count)
        for (index, value) in values.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var run: [Int] = []
        var index = tails.last ?? -1
        while index >= 0 {
            run.append(values[index])
            index = previous[index]
        }
        return run.reversed()
    }
}

private extension ListChange {
    /// The same edit `offset` rows further down.
    func shifted(by offset: Int) -> ListChange {
        switch self {
        case .remove(let index, let count): return .remove(index: index + offset, count: count)
        case .insert(let index, let rows): return .insert(index: index + offset, rows: rows)
        case .update(let index, let row): return .update(index: index + offset, row: row)
        case .move(let from, let to): return .move(from: from + offset, to: to + offset)
        }
    }
}

private extension Array where Element == Int {
    /// The index of `value` in this sorted array, if present.
    func binarySearch(_ value: Int) -> Int? {
        let point = insertionPoint(of: value)
        return point < count && self[point] == value ? point : nil
    }

    /// Where `value` goes in this sorted array.
    func insertionPoint(of value: Int) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
