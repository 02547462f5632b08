import RxWidgets

/// The outbox entries one `XREAD` brought to an edge process, delivered together: a
/// viewer that sent none of them gets the batch's patches merged into one message,
/// encoded once for all such viewers (one frame per viewer per batch, not per event); a
/// client that sent some of them gets the others' patches merged between its answers, in
/// the outbox's order. Applying the merged patch leaves a client where applying every
/// patch in turn would have. Loop-confined (built and used inside one callback).
struct SharedScenePatchBatch {
    /// One outbox entry as this process sees it.
    struct Item {
        /// What everyone but its sender gets (nil: nothing changed).
        var patch: PatchMessage?
        /// `patch` as the owner encoded it.
        var patchJSON: String
        /// The local client that sent the event, if it is still here.
        var sender: SessionClient?
        /// The answer for `sender`.
        var answer: ServerMessage?
    }

    private(set) var items: [Item] = []

    var isEmpty: Bool { items.isEmpty }

    mutating func append(_ item: Item) {
        items.append(item)
    }

    /// Delivers the batch to `sessions`' clients.
    func deliver(to sessions: [Session]) {
        guard !items.isEmpty else { return }
        var senders: [ObjectIdentifier: SessionClient] = [:]
        for item in items {
            if let sender = item.sender, item.answer != nil { senders[ObjectIdentifier(sender)] = sender }
        }
        // Everyone who sent nothing here: every patch, merged, encoded once.
        let patches = items.compactMap(\.patch)
        if !patches.isEmpty {
            let messages: [OutgoingMessage]
            if patches.count == 1, let only = items.first(where: { $0.patch != nil }) {
                messages = [OutgoingMessage(.patch(only.patch!), json: only.patchJSON)]
            } else {
                messages = Self.merge(patches).map { OutgoingMessage(.patch($0)) }
            }
            for session in sessions {
                for message in messages {
                    session.broadcast(message) { senders[ObjectIdentifier($0)] == nil }
                }
            }
        }
        // The few clients that sent some: the others' patches merged between their answers.
        for (key, sender) in senders {
            guard let session = sender.session else { continue }
            var between: [PatchMessage] = []
            for item in items {
                if let own = item.sender, ObjectIdentifier(own) == key, let answer = item.answer {
                    // A failed binding still changed things: the sender sees them, then the error.
                    if case .error = answer, let patch = item.patch { between.append(patch) }
                    for patch in Self.merge(between) {
                        session.broadcast(OutgoingMessage(.patch(patch))) { $0 === sender }
                    }
                    between.removeAll()
                    sender.send(answer)
                } else if let patch = item.patch {
                    between.append(patch)
                }
            }
            for patch in Self.merge(between) {
                session.broadcast(OutgoingMessage(.patch(patch))) { $0 === sender }
            }
        }
    }

    /// `patches` as few patches as possible, with the same effect applied in order: runs
    /// without added or removed widgets become one patch, one change per widget property
    /// (a later value replaces an earlier one; list operations are concatenated, or
    /// applied to a full list sent earlier in the run).
    static func merge(_ patches: [PatchMessage]) -> [PatchMessage] {
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
