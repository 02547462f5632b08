import BinderyProtocol
import RxCore
import RxWidgets

/// A scene's presented alerts, bottom to top, and the widgets they added or removed since
/// the last patch. Loop-confined.
struct ScenePresentation {
    var presentations: [(presented: ViewController, presenter: ViewController)] = []
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
    /// The host itself is the presentation host: no stack object and callbacks per
    /// session for alerts most scenes never show.
    func setUpPresentation(for controller: ViewController) {
        controller.presentationHost = self
    }

    func tearDownPresentation() {
        tearDownNavigation()
        for entry in presentation.presentations { entry.presented.presentationHost = nil }
        controller?.presentationHost = nil
    }

    // MARK: PresentationHost (as `PresentationStack`, calling `presented`/`dismissed`)

    /// The presented controllers, bottom to top, each with its presenter.
    package var presentations: [(presented: ViewController, presenter: ViewController)] {
        presentation.presentations
    }

    /// Shows `controller` over the others; its widgets join the tree.
    package func present(_ controller: ViewController, from presenter: ViewController) {
        presentation.presentations.append((controller, presenter))
        controller.presentationHost = self
        presented(controller)
    }

    /// Removes `controller` and every controller presented over it, top first.
    package func dismiss(_ controller: ViewController) {
        guard let index = presentation.presentations.firstIndex(where: { $0.presented === controller }) else { return }
        while presentation.presentations.count > index {
            let top = presentation.presentations.removeLast().presented
            top.presentationHost = nil
            dismissed(top)
        }
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
