import BinderyProtocol
import RxWidgets

extension SceneHost: WidgetTreeHierarchyHost {
    /// Adds the widgets attached to `widgets` — gesture recognizers and refresh controls
    /// (``View/attachedWidgets``) — to the tree (fresh ids such as
    /// `tapGestureRecognizer-4`, unless already in it), so clients see them and can report
    /// their events. Also lets the controller's root view end editing in this tree
    /// (`view.endEditing(_:)`). Returns the ones added.
    @discardableResult
    func addGestureRecognizers(of widgets: [View]) -> [View] {
        if let root = controller?.view { tree.setEditingRoot(root) }
        var added: [View] = []
        for widget in widgets {
            for attached in widget.attachedWidgets where tree.widget(withID: attached.id) !== attached {
                attached.id = ""
                if (try? tree.add(attached)) != nil { added.append(attached) }
            }
        }
        return added
    }

    /// A view joined the tree through the hierarchy (it and its gesture recognizers go
    /// out in the next patch's `added`) or left it (its id in `removed`).
    package func hierarchyChanged(_ view: View, joined: Bool) {
        if joined {
            presentation.added.append(view)
            presentation.added += addGestureRecognizers(of: [view])
        } else {
            for attached in view.attachedWidgets.reversed() { removeWidget(attached) }
            if let index = presentation.added.firstIndex(where: { $0 === view }) {
                presentation.added.remove(at: index)
            } else {
                presentation.removed.append(view.id)
            }
        }
        changesPending()
    }

    package func controllerName(of view: View) -> String? {
        controller.flatMap { ViewProperties.label(of: view, in: $0) }
    }
}
