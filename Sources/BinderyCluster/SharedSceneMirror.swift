import BinderyProtocol
import RxWidgets

/// The widget tree of a shared scene as its viewers see it, fed by the owner's patches:
/// what a process that does not run the scene serves `scene` messages from.
package struct SharedSceneMirror {
    /// Every widget, in order.
    package private(set) var widgets: [WidgetSnapshot]

    package init(widgets: [WidgetSnapshot]) {
        self.widgets = widgets
    }

    /// Applies `patch` as a client does: removals, then additions, then changes.
    package mutating func apply(_ patch: PatchMessage) {
        if !patch.removed.isEmpty {
            let removed = Set(patch.removed)
            widgets.removeAll { removed.contains($0.id) }
        }
        widgets.append(contentsOf: patch.added)
        guard !patch.changes.isEmpty else { return }
        var index: [String: Int] = [:]
        for (offset, widget) in widgets.enumerated() { index[widget.id] = offset }
        for change in patch.changes {
            guard let offset = index[change.target] else { continue }
            var properties = widgets[offset].properties
            switch change.update {
            case .value(let value):
                properties[change.prop] = value
            case .ops(let ops):
                guard case .rows(let rows)? = properties[change.prop] ?? .rows([]) else { continue }
                properties[change.prop] = .rows(ListRow.applying(ops, to: rows))
            }
            widgets[offset] = WidgetSnapshot(id: widgets[offset].id, kind: widgets[offset].kind, properties: properties)
        }
    }

    /// The patch that turns `self` into `target` (widgets added and removed by id,
    /// properties compared by their JSON).
    package func patch(to target: [WidgetSnapshot]) -> PatchMessage {
        let mine = Dictionary(widgets.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let theirs = Set(target.map(\.id))
        let removed = widgets.map(\.id).filter { !theirs.contains($0) }
        var added: [WidgetSnapshot] = []
        var changes: [PatchChange] = []
        for widget in target {
            guard let old = mine[widget.id] else {
                added.append(widget)
                continue
            }
            for key in widget.properties.keys.sorted() {
                let new = widget.properties[key]!
                if let before = old.properties[key], MessageEncoder.encodeValue(before) == MessageEncoder.encodeValue(new) { continue }
                changes.append(PatchChange(target: widget.id, prop: key, value: new))
            }
        }
        return PatchMessage(removed: removed, added: added, changes: changes)
    }
}
