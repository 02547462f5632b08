import BinderyProtocol
import RxCore
import RxWidgets

/// A scene's presented alerts, and the widgets they added or removed since the last
/// patch. Loop-confined.
struct ScenePresentation {
    let stack = PresentationStack()
    var added: [View] = []
    var removed: [String] = []
}

/// The widgets a patch adds and removes.
package struct PresentationChanges {
    package var removed: [String] = []
    package var added: [WidgetSnapshot] = []

    package var isEmpty: Bool { removed.isEmpty && added.isEmpty }
}

extension SceneHost {
    /// Makes the scene's controller present through this host: a presented alert's
    /// widgets join the tree (and the next patch's `added`), a dismissed one's leave it.
    func setUpPresentation(for controller: ViewController) {
        presentation.stack.onPresent = { [weak self] in self?.presented($0) }
        presentation.stack.onDismiss = { [weak self] in self?.dismissed($0) }
        controller.presentationHost = presentation.stack
    }

    func tearDownPresentation() {
        tearDownNavigation()
        for entry in presentation.stack.presentations { entry.presented.presentationHost = nil }
        controller?.presentationHost = nil
    }

    /// The widgets of a presented controller: an alert and its text fields.
    private func widgets(of controller: ViewController) -> [View] {
        guard let alert = controller as? AlertController else { return [] }
        return [alert.alertView] + (alert.textFields ?? [])
    }

    private func presented(_ controller: ViewController) {
        if !(controller is AlertController) {
            Hooks.bindingErrorHandler(ProtocolError(.bindingFailed, "only an AlertController can be presented yet"))
        }
        for widget in widgets(of: controller) {
            // Auto ids (`alertController-1`, `textField-2`), so they never clash with the scene's.
            widget.id = ""
            guard (try? tree.add(widget)) != nil else { continue }
            presentation.added.append(widget)
        }
        changesPending()
    }

    private func dismissed(_ controller: ViewController) {
        for widget in widgets(of: controller).reversed() {
            removeWidget(widget)
        }
        changesPending()
    }

    /// Takes `widget` out of the tree; clients hear of it in the next patch's `removed`
    /// (or not at all, if they never heard of it).
    func removeWidget(_ widget: View) {
        guard tree.widget(withID: widget.id) === widget else { return }
        let id = widget.id
        tree.remove(widget)
        if let index = presentation.added.firstIndex(where: { $0 === widget }) {
            presentation.added.remove(at: index)
        } else {
            presentation.removed.append(id)
        }
    }

    /// The widgets added and removed since the last call (the added ones as snapshots
    /// now, so their own property changes in `changes` are dropped).
    package func takePresentationChanges(filtering changes: inout [WidgetChange]) -> PresentationChanges {
        guard !presentation.added.isEmpty || !presentation.removed.isEmpty else { return PresentationChanges() }
        let added = presentation.added.map { WidgetSnapshot(id: $0.id, kind: $0.kind, properties: $0.snapshot()) }
        if !added.isEmpty {
            let ids = Set(added.map(\.id))
            changes.removeAll { ids.contains($0.widgetID) }
        }
        defer {
            presentation.added = []
            presentation.removed = []
        }
        return PresentationChanges(removed: presentation.removed, added: added)
    }
}
