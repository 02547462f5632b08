import RxWidgets

/// How a per-connection scene's session is rebuilt on another process (a takeover after
/// its owner died, a drain, a resume routed elsewhere) when a durable store is configured.
/// Declared at registration: `registry.register("date", restoration: .encoded) { ... }`.
public enum SceneRestoration: String, Sendable, CaseIterable {
    /// A fresh view controller, then the journal of accepted events sent through the
    /// normal event path, their answers discarded (LiveView's form recovery made general).
    /// The default: right for scenes whose state follows from their events alone.
    case replay
    /// The scene's own state, written with each acknowledged event through
    /// ``StateRestoring/encodeRestorableState(with:)`` and read back into a fresh view
    /// controller with ``StateRestoring/decodeRestorableState(with:)`` (UIKit's names).
    /// For scenes that read the clock, run timers or do I/O, where a replay would differ.
    case encoded
    /// A fresh mount, as without a store; the session keeps its token.
    case none
}

extension SceneHost {
    /// Puts `widgets`' control values back as user input (`valueChanged`, else
    /// `editingChanged`), so the scene's bindings see them as they did the first time:
    /// a scene whose state is its controls' values (a form) is rebuilt without replaying
    /// its events. LiveView's form recovery, done on the server. Used by a shared scene's
    /// new owner and by a compacted journal.
    func restoreControlValues(from widgets: [WidgetSnapshot]) {
        let saved = Dictionary(widgets.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for widget in tree.widgets {
            guard let control = widget as? Control, let property = control.valueProperty,
                  let value = saved[widget.id]?.properties[property] else { continue }
            if let current = control.snapshot()[property], SharedSceneWire.json(current) == SharedSceneWire.json(value) { continue }
            if (try? control.sendUserEvent(.valueChanged, value: value)) != nil { continue }
            if (try? control.sendUserEvent(.editingChanged, value: value)) != nil { continue }
            _ = try? control.applyUserInput(property: property, value: value)
        }
    }
}
