import BinderyProtocol
import RxCore
import RxWidgets

extension SceneHost: ScreenHost {
    /// A navigation controller at the scene's root puts its screens' widgets here: the
    /// root screen's join the first scene; pushed ones arrive in a patch's `added`.
    func setUpNavigation(for controller: ViewController) {
        guard let navigation = controller as? NavigationController else { return }
        navigation.screenHost = self
        _ = tree.takeChanges()  // the first scene shows all of it
        presentation.added = []
    }

    /// A reload, a resume after the session expired or a copied link: the URL's screen
    /// path (`#/chen-wei`) is pushed on a root navigation controller before the first
    /// `scene` message, by asking each top screen (``ScreenRestoring``) for the next.
    static func restoreScreens(of controller: ViewController, path: [String]) {
        guard !path.isEmpty, let navigation = controller as? NavigationController else { return }
        navigation.restoreScreens(path)
    }

    func tearDownNavigation() {
        (controller as? NavigationController)?.screenHost = nil
    }

    /// Adds `controller`'s widgets (as for a scene: its `sceneWidgets`, or its `View`
    /// properties) under `prefix.<id>`.
    package func addWidgets(of controller: ViewController, prefix: String?) -> [View] {
        let found = (controller as? any Scene)?.sceneWidgets ?? SceneWidgets.discover(in: controller)
        var added: [View] = []
        for (id, widget) in found {
            addWidget(widget, id: prefix.map { "\($0).\(id)" } ?? id)
            if tree.widget(withID: widget.id) !== widget { continue }
            added.append(widget)
        }
        for recognizer in addGestureRecognizers(of: added) { presentation.added.append(recognizer) }
        return added
    }

    package func addWidget(_ widget: View, id: String) {
        if (try? tree.add(widget, id: id)) == nil {
            // Taken: a fresh id. (A widget already in the tree stays where it is.)
            widget.id = ""
            guard (try? tree.add(widget)) != nil else { return }
        }
        presentation.added.append(widget)
        changesPending()
    }

    package func removeWidgets(_ widgets: [View]) {
        for widget in widgets.reversed() {
            for attached in widget.attachedWidgets.reversed() { removeWidget(attached) }
            removeWidget(widget)
        }
        changesPending()
    }
}
