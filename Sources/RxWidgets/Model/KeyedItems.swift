import Foundation

/// What a ``TableView`` or a ``CollectionView`` holds of its items: the ``TableContent``
/// (sections, and every item flat), the selection by key, and the arithmetic between keys,
/// flat indices and index paths. Both views keep their items this way (a collection's
/// items are a table's rows on the wire), so both hold one of these.
///
/// Loop-confined, as the view that holds it; changes are recorded on that view.
final class KeyedItems {
    /// What the view shows.
    private(set) var content = TableContent()
    /// The selected items' keys, in the order they were selected.
    private(set) var selectedKeys: [String] = []
    /// Item key → flat index, built when first needed after a change.
    private var keyIndex: [String: Int]?
    /// The selection's wire property (`selectedRows`, `selectedItems`).
    private let selectionProperty: String
    /// What an item is called in error messages (`row`, `item`), and its key (`a row
    /// key`, `an item key`).
    private let noun: String
    private let keyName: String

    init(selectionProperty: String, noun: String, keyName: String) {
        self.selectionProperty = selectionProperty
        self.noun = noun
        self.keyName = keyName
    }

    // MARK: - Positions

    /// The number of items in `section` (0 for a section that does not exist).
    func count(inSection section: Int) -> Int {
        let starts = content.sectionStarts
        guard starts.indices.contains(section) else { return 0 }
        let end = section + 1 < starts.count ? starts[section + 1] : content.rows.count
        return end - starts[section]
    }

    /// The flat index of the item at `indexPath`, if there is one.
    func flatIndex(of indexPath: IndexPath) -> Int? {
        // `row` and `item` are the same element of a two-element index path.
        guard indexPath.count == 2, indexPath.item >= 0,
              indexPath.item < count(inSection: indexPath.section) else { return nil }
        return content.sectionStarts[indexPath.section] + indexPath.item
    }

    /// The flat index of the item keyed `key`, if there is one.
    func flatIndex(forKey key: String) -> Int? {
        if keyIndex == nil {
            var index: [String: Int] = [:]
            index.reserveCapacity(content.rows.count)
            for (offset, row) in content.rows.enumerated() { index[row.id] = offset }
            keyIndex = index
        }
        return keyIndex?[key]
    }

    /// The index path of flat index `index`.
    func indexPath(ofFlatIndex index: Int) -> IndexPath {
        // The last section starting at or before `index` (empty sections share a start).
        let starts = content.sectionStarts
        var low = 0
        var high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= index { low = middle } else { high = middle - 1 }
        }
        return IndexPath(item: index - starts[low], section: low)
    }

    /// The key of the item at `indexPath`, if there is one.
    func key(at indexPath: IndexPath) -> String? {
        flatIndex(of: indexPath).map { content.rows[$0].id }
    }

    /// The index path of the item keyed `key`, if there is one.
    func indexPath(forKey key: String) -> IndexPath? {
        flatIndex(forKey: key).map(indexPath(ofFlatIndex:))
    }

    // MARK: - Changes

    /// Replaces the items with `content` and records what changed on `view`. Keeps the
    /// selection of items whose keys remain when `keepingSelection` (a batch update), as
    /// UIKit adjusts it; clears it otherwise (a reload).
    func replace(with content: TableContent, keepingSelection: Bool, on view: View) {
        let old = self.content
        let oldSelection = selectedKeys
        self.content = content
        keyIndex = nil
        if keepingSelection, selectedKeys.count <= 4 {
            // A scan per selected key: cheaper than indexing 10,000 keys on every update.
            selectedKeys = selectedKeys.filter { key in content.rows.contains { $0.id == key } }
        } else if keepingSelection {
            selectedKeys = selectedKeys.filter { flatIndex(forKey: $0) != nil }
        } else {
            selectedKeys = []
        }
        if content.sections != old.sections {
            view.changed(TablePropertyName.sections, .rows(old.sections), .rows(content.sections))
        }
        if content.rows != old.rows {
            view.changed(PropertyName.items, .rows(old.rows), .rows(content.rows))
        }
        recordSelection(from: oldSelection, on: view)
    }

    /// Forgets the selection without recording it (a reload clears it on the client too).
    func forgetSelection() {
        selectedKeys = []
    }

    /// Replaces the selection with `keys`, recording the change on `view`.
    func setSelection(_ keys: [String], on view: View) {
        let old = selectedKeys
        selectedKeys = keys
        recordSelection(from: old, on: view)
    }

    /// Selects the item keyed `key` (with single selection, only it) and returns the keys
    /// this deselected, in selection order.
    @discardableResult
    func select(_ key: String, multiple: Bool, on view: View) -> [String] {
        let old = selectedKeys
        var deselected: [String] = []
        if !multiple {
            deselected = selectedKeys.filter { $0 != key }
            selectedKeys = [key]
        } else if !selectedKeys.contains(key) {
            selectedKeys.append(key)
        }
        recordSelection(from: old, on: view)
        return deselected
    }

    /// Selects the item at `indexPath` (nothing for no such item), or clears the selection
    /// for `nil`: a view's `selectRow(at:)` / `selectItem(at:)`.
    func select(at indexPath: IndexPath?, multiple: Bool, on view: View) {
        guard let indexPath else { return setSelection([], on: view) }
        guard let key = key(at: indexPath) else { return }
        select(key, multiple: multiple, on: view)
    }

    /// Deselects the item keyed `key`; returns whether it was selected.
    @discardableResult
    func deselect(_ key: String, on view: View) -> Bool {
        guard selectedKeys.contains(key) else { return false }
        let old = selectedKeys
        selectedKeys.removeAll { $0 == key }
        recordSelection(from: old, on: view)
        return true
    }

    private func recordSelection(from old: [String], on view: View) {
        if selectedKeys != old {
            view.changed(selectionProperty, .strings(old), .strings(selectedKeys))
        }
    }

    // MARK: - User events

    /// The item a user's event names by its `row` key: the key, its flat index and its
    /// index path. Throws for an event `view` does not send, no key, or an unknown key.
    func target(of event: WidgetEvent, in view: WidgetEventReceiver) throws(WidgetInputError)
        -> (key: String, flat: Int, indexPath: IndexPath) {
        guard view.widgetEventNames.contains(event.name) else {
            throw WidgetInputError(.unknownEvent, "\(view.kind) '\(view.id)' does not send \(event.name)")
        }
        guard let key = event.row else {
            throw WidgetInputError(.badValue, "\(view.kind) '\(view.id)': \(event.name) needs a 'row' (\(keyName))")
        }
        guard let flat = flatIndex(forKey: key) else {
            throw WidgetInputError(.unknownRow, "\(view.kind) '\(view.id)' has no \(noun) '\(key)'")
        }
        return (key, flat, indexPath(ofFlatIndex: flat))
    }

    /// Where an `itemMoved` event puts the item at `source`: its `toSection` (a section
    /// key) and `toIndex`, counted after the item is taken out, checked.
    func moveDestination(of event: WidgetEvent, from source: IndexPath, in view: View) throws(WidgetInputError) -> IndexPath {
        guard let sectionKey = event.toSection, let toIndex = event.toIndex else {
            throw WidgetInputError(.badValue, "\(view.kind) '\(view.id)': itemMoved needs 'toSection' (a section key) and 'toIndex'")
        }
        guard let toSection = content.sections.firstIndex(where: { $0.id == sectionKey }) else {
            throw WidgetInputError(.unknownRow, "\(view.kind) '\(view.id)' has no section '\(sectionKey)'")
        }
        let available = count(inSection: toSection) - (toSection == source.section ? 1 : 0)
        guard (0...available).contains(toIndex) else {
            throw WidgetInputError(.indexOutOfRange,
                                   "\(view.kind) '\(view.id)': toIndex \(toIndex) is outside 0...\(available) of section '\(sectionKey)'")
        }
        return IndexPath(item: toIndex, section: toSection)
    }

    /// Moves the item at flat index `flat` (at `source`) to `destination`, as the user
    /// moved it on screen (no reload), recording the change on `view`.
    func move(from flat: Int, at source: IndexPath, to destination: IndexPath, on view: View) {
        var moved = content
        moved.moveRow(from: flat, fromSection: source.section, to: destination)
        replace(with: moved, keepingSelection: true, on: view)
    }
}
