/// The changes between two versions of sectioned data, matched by identity, with
/// RxDataSources' (Differentiator's) rules, so the same data gives the same moves:
///
/// - a section or item whose identity is gone is deleted, a new one inserted; an
///   item with the same identity but a different value is updated;
/// - walking the new order, an item (or section) is moved unless it is the first
///   old one, in old order, not yet placed or deleted: `[A, B, C] → [B, C, A]`
///   moves `B` and `C`, and `A` follows by itself;
/// - an item going to an inserted section, or coming from a deleted one, is deleted
///   and inserted, not moved.
///
/// The steps come as up to three ``Changeset``s, as Differentiator's: deletions and
/// updates, then inserted and moved sections, then inserted and moved items.
public enum Diff {
    /// Data that cannot be diffed: a duplicate identity.
    public enum Error: Swift.Error, CustomDebugStringConvertible {
        /// Two items share an identity (the item, described).
        case duplicateItem(item: String)
        /// Two sections share an identity (the section, described).
        case duplicateSection(section: String)

        /// A readable message.
        public var debugDescription: String {
            switch self {
            case .duplicateItem(let item): return "Duplicate item \(item)"
            case .duplicateSection(let section): return "Duplicate section \(section)"
            }
        }
    }

    /// The steps turning `initialSections` into `finalSections`.
    ///
    /// - Throws: ``Error`` for duplicate section or item identities.
    public static func differencesForSectionedView<Section: AnimatableSectionModelType>(
        initialSections: [Section], finalSections: [Section]
    ) throws -> [Changeset<Section>] {
        let plan = try Plan(initialSections, finalSections)
        return [plan.deletionsAndUpdates(), plan.sectionInsertsAndMoves(), plan.itemInsertsAndMoves()].compactMap { $0 }
    }
}

private enum Mark: Equatable {
    case untouched, inserted, deleted, moved, movedAutomatically

    var isMove: Bool { self == .moved || self == .movedAutomatically }
}

/// The classification of every section and item, from which the steps are read.
private struct Plan<Section: AnimatableSectionModelType> {
    typealias Item = Section.Item
    let initial: [Section]
    let final: [Section]
    // Sections: where each went / came from, and what happened to it.
    var sectionTo: [Int?]
    var sectionFrom: [Int?]
    var initialSectionMark: [Mark]
    var finalSectionMark: [Mark]
    var sectionAfterDelete: [Int?]
    // Items, likewise.
    var itemTo: [[ItemPath?]]
    var itemFrom: [[ItemPath?]]
    var initialItemMark: [[Mark]]
    var finalItemMark: [[Mark]]
    var itemAfterDelete: [[Int?]]

    init(_ initial: [Section], _ final: [Section]) throws {
        self.initial = initial
        self.final = final
        sectionTo = Array(repeating: nil, count: initial.count)
        sectionFrom = Array(repeating: nil, count: final.count)
        initialSectionMark = Array(repeating: .untouched, count: initial.count)
        finalSectionMark = Array(repeating: .untouched, count: final.count)
        sectionAfterDelete = Array(repeating: nil, count: initial.count)
        itemTo = initial.map { Array(repeating: nil, count: $0.items.count) }
        itemFrom = final.map { Array(repeating: nil, count: $0.items.count) }
        initialItemMark = initial.map { Array(repeating: .untouched, count: $0.items.count) }
        finalItemMark = final.map { Array(repeating: .untouched, count: $0.items.count) }
        itemAfterDelete = initial.map { Array(repeating: nil, count: $0.items.count) }
        try matchSections()
        try matchItems()
        classifySections()
        classifyItems()
    }

    private mutating func matchSections() throws {
        var index: [Section.Identity: Int] = [:]
        for (position, section) in initial.enumerated() {
            guard index.updateValue(position, forKey: section.identity) == nil else {
                throw Diff.Error.duplicateSection(section: String(describing: section))
            }
        }
        for (position, section) in final.enumerated() {
            guard let old = index[section.identity] else { continue }
            guard sectionTo[old] == nil else { throw Diff.Error.duplicateSection(section: String(describing: section)) }
            sectionTo[old] = position
            sectionFrom[position] = old
        }
    }

    private mutating func matchItems() throws {
        var index: [Item.Identity: ItemPath] = [:]
        for (section, items) in initial.enumerated().map({ ($0.offset, $0.element.items) }) {
            for (position, item) in items.enumerated() {
                guard index.updateValue(ItemPath(sectionIndex: section, itemIndex: position),
                                        forKey: item.identity) == nil else {
                    throw Diff.Error.duplicateItem(item: String(describing: item))
                }
            }
        }
        for (section, items) in final.enumerated().map({ ($0.offset, $0.element.items) }) {
            for (position, item) in items.enumerated() {
                guard let old = index[item.identity] else { continue }
                guard itemTo[old.sectionIndex][old.itemIndex] == nil else { throw Diff.Error.duplicateItem(item: String(describing: item)) }
                itemTo[old.sectionIndex][old.itemIndex] = ItemPath(sectionIndex: section, itemIndex: position)
                itemFrom[section][position] = old
            }
        }
    }

    private mutating func classifySections() {
        var afterDelete = 0
        for position in initial.indices {
            if sectionTo[position] == nil {
                initialSectionMark[position] = .deleted
            } else {
                sectionAfterDelete[position] = afterDelete
                afterDelete += 1
            }
        }
        var untouched: Int? = 0
        for position in final.indices {
            untouched = nextUntouched(from: untouched, marks: initialSectionMark)
            guard let old = sectionFrom[position] else {
                finalSectionMark[position] = .inserted
                continue
            }
            let mark: Mark = old == untouched ? .movedAutomatically : .moved
            finalSectionMark[position] = mark
            initialSectionMark[old] = mark
        }
    }

    private mutating func classifyItems() {
        // Deleted items first: gone, or going into a section that is new.
        for section in initial.indices where sectionTo[section] != nil {
            var afterDelete = 0
            for position in initial[section].items.indices {
                guard let target = itemTo[section][position], finalSectionMark[target.sectionIndex] != .inserted else {
                    initialItemMark[section][position] = .deleted
                    continue
                }
                itemAfterDelete[section][position] = afterDelete
                afterDelete += 1
            }
        }
        // Then, in the new order, each item of a kept section: inserted, moved, or in place.
        for section in final.indices {
            guard let oldSection = sectionFrom[section] else { continue }
            var untouched: Int? = 0
            for position in final[section].items.indices {
                untouched = nextUntouched(from: untouched, marks: initialItemMark[oldSection])
                guard let source = itemFrom[section][position],
                      initialSectionMark[source.sectionIndex] != .deleted else {
                    finalItemMark[section][position] = .inserted
                    continue
                }
                let inPlace = source == ItemPath(sectionIndex: oldSection, itemIndex: untouched ?? -1)
                let mark: Mark = inPlace ? .movedAutomatically : .moved
                initialItemMark[source.sectionIndex][source.itemIndex] = mark
                finalItemMark[section][position] = mark
            }
        }
    }

    private func nextUntouched(from start: Int?, marks: [Mark]) -> Int? {
        guard var index = start else { return nil }
        while index < marks.count {
            if marks[index] == .untouched { return index }
            index += 1
        }
        return nil
    }

    /// Step 1: deleted sections and items, updated items; sections keep their places.
    func deletionsAndUpdates() -> Changeset<Section>? {
        var deletedSections: [Int] = []
        var deletedItems: [ItemPath] = []
        var updatedItems: [ItemPath] = []
        var afterDelete: [Section] = []
        for (section, original) in initial.enumerated() {
            if initialSectionMark[section] == .deleted {
                deletedSections.append(section)
                continue
            }
            var kept: [Item] = []
            for (position, item) in original.items.enumerated() {
                let path = ItemPath(sectionIndex: section, itemIndex: position)
                guard initialItemMark[section][position].isMove, let target = itemTo[section][position] else {
                    deletedItems.append(path)
                    continue
                }
                let newItem = final[target.sectionIndex].items[target.itemIndex]
                if newItem != item { updatedItems.append(path) }
                kept.append(newItem)
            }
            afterDelete.append(Section(original: original, items: kept))
        }
        guard !deletedSections.isEmpty || !deletedItems.isEmpty || !updatedItems.isEmpty else { return nil }
        return Changeset(originalSections: initial, finalSections: afterDelete, deletedSections: deletedSections,
                         deletedItems: deletedItems, updatedItems: updatedItems)
    }

    /// Step 2: inserted and moved sections; kept sections hold their kept items in old order.
    func sectionInsertsAndMoves() -> Changeset<Section>? {
        var moved: [(from: Int, to: Int)] = []
        for section in initial.indices where initialSectionMark[section] == .moved {
            moved.append((from: sectionAfterDelete[section]!, to: sectionTo[section]!))
        }
        let inserted = final.indices.filter { finalSectionMark[$0] == .inserted }
        guard !moved.isEmpty || !inserted.isEmpty else { return nil }
        let sections: [Section] = final.indices.map { section in
            guard let old = sectionFrom[section] else { return final[section] }
            let items: [Item] = initial[old].items.indices.compactMap { position in
                guard initialItemMark[old][position].isMove, let target = itemTo[old][position] else { return nil }
                return final[target.sectionIndex].items[target.itemIndex]
            }
            return Section(original: final[section], items: items)
        }
        return Changeset(finalSections: sections, insertedSections: inserted, movedSections: moved)
    }

    /// Step 3: inserted and moved items, into the final sections.
    func itemInsertsAndMoves() -> Changeset<Section>? {
        var inserted: [ItemPath] = []
        var moved: [(from: ItemPath, to: ItemPath)] = []
        for section in final.indices where finalSectionMark[section].isMove {
            for position in final[section].items.indices {
                let path = ItemPath(sectionIndex: section, itemIndex: position)
                switch finalItemMark[section][position] {
                case .inserted:
                    inserted.append(path)
                case .moved:
                    let source = itemFrom[section][position]!
                    let from = ItemPath(sectionIndex: sectionTo[source.sectionIndex]!,
                                        itemIndex: itemAfterDelete[source.sectionIndex][source.itemIndex]!)
                    moved.append((from: from, to: path))
                default:
                    break
                }
            }
        }
        guard !inserted.isEmpty || !moved.isEmpty else { return nil }
        return Changeset(finalSections: final, insertedItems: inserted, movedItems: moved)
    }
}
