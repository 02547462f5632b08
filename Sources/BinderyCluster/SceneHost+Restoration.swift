import BinderyProtocol
import BinderyRuntime
import RxWidgets

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
            if let current = control.snapshot()[property], MessageEncoder.encodeValue(current) == MessageEncoder.encodeValue(value) { continue }
            if (try? control.sendUserEvent(.valueChanged, value: value)) != nil { continue }
            if (try? control.sendUserEvent(.editingChanged, value: value)) != nil { continue }
            _ = try? control.applyUserInput(property: property, value: value)
        }
    }
}
