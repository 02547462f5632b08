import BinderyProtocol
import BinderyRuntime
import RxWidgets

/// The outbox entries one `XREAD` brought to an edge process, handed together to its
/// ``SharedSceneFanOut`` (answers at once, patches merged into the next frame). Applying
/// merged patches leaves a client where applying every patch in turn would have.
/// Loop-confined (built and used inside one callback).
package struct SharedScenePatchBatch {
    /// One outbox entry as this process sees it.
    package struct Item {
        /// What everyone but its sender gets (nil: nothing changed).
        var patch: PatchMessage?
        /// `patch` as the owner encoded it (UTF-8 JSON).
        var patchJSON: [UInt8]
        /// The local client that sent the event, if it is still here.
        var sender: SessionClient?
        /// The answer for `sender`.
        package var answer: ServerMessage?
        /// `answer` as the owner encoded it (sent as is: no second encoding).
        var answerJSON: [UInt8]?
    }

    private(set) var items: [Item] = []

    var isEmpty: Bool { items.isEmpty }

    mutating func append(_ item: Item) {
        items.append(item)
    }

    /// `patches` as few patches as possible, with the same effect applied in order: runs
    /// without added or removed widgets become one patch, one change per widget property
    /// (a later value replaces an earlier one; list operations are concatenated, or
    /// applied to a full list sent earlier in the run).
    package static func merge(_ patches: [PatchMessage]) -> [PatchMessage] {
        guard patches.count > 1 else { return patches.map { PatchMessage(removed: $0.removed, added: $0.added, changes: $0.changes) } }
        var merged: [PatchMessage] = []
        var current: PatchMessage?
        var index: [String: Int] = [:]
        for patch in patches {
            if current == nil || !patch.removed.isEmpty || !patch.added.isEmpty {
                if let current { merged.append(current) }
                // Removals and additions apply before the changes: a run starts with them.
                current = PatchMessage(removed: patch.removed, added: patch.added, changes: [])
                index = [:]
            }
            for change in patch.changes {
                let key = change.target + "\u{0}" + change.prop
                guard let at = index[key] else {
                    index[key] = current!.changes.count
                    current!.changes.append(change)
                    continue
                }
                switch (current!.changes[at].update, change.update) {
                case (_, .value):
                    current!.changes[at].update = change.update
                case (.ops(let earlier), .ops(let later)):
                    current!.changes[at].update = .ops(earlier + later)
                case (.value(.rows(let rows)), .ops(let ops)):
                    current!.changes[at].update = .value(.rows(ListRow.applying(ops, to: rows)))
                case (.value, .ops):
                    // Operations on something that is not a list: keep both, in order.
                    index[key] = current!.changes.count
                    current!.changes.append(change)
                }
            }
        }
        if let current { merged.append(current) }
        return merged
    }
}
