import RxWidgets

extension SceneHost {
    /// Adds the gesture recognizers attached to `widgets` to the tree (fresh ids such as
    /// `tapGestureRecognizer-4`, unless already in it), so clients see them and can
    /// report `recognized`. Returns the ones added.
    @discardableResult
    func addGestureRecognizers(of widgets: [View]) -> [GestureRecognizer] {
        var added: [GestureRecognizer] = []
        for widget in widgets {
            for recognizer in widget.gestureRecognizers ?? [] where tree.widget(withID: recognizer.id) !== recognizer {
                recognizer.id = ""
                if (try? tree.add(recognizer)) != nil { added.append(recognizer) }
            }
        }
        return added
    }
}
