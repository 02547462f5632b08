import RxWidgets

/// A demo view controller that names its widgets: the server puts ``sceneWidgets`` in
/// the scene's widget tree, in this order (the order the auto-rendered page shows them).
///
/// Each widget's ``View/id`` is set where the widget is declared (see ``named(_:_:)``):
/// the ids are the demo's contract with docs, scripts and tests.
public protocol DemoScene: ViewController {
    /// The scene's widgets, each with its contract id, in display order.
    var sceneWidgets: [View] { get }
}

/// Gives `widget` the id `id` and returns it, so a controller can declare
/// `let picker = named("picker", SegmentedControl(...))` and keep id and widget together.
func named<Widget: View>(_ id: String, _ widget: Widget) -> Widget {
    widget.id = id
    return widget
}
