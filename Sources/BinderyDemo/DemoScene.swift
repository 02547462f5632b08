import RxWidgets

/// A demo view controller that lists its widgets: the server puts ``sceneWidgets`` in
/// the scene's widget tree under those ids, in that order (the order the auto-rendered
/// page shows them).
///
/// The ids are the demo's contract with docs, scripts and tests, so they are written
/// out rather than taken from property names. The shape matches Bindery's `Scene`
/// requirement, so a controller can adopt both with one property.
public protocol DemoScene: ViewController {
    /// The scene's widgets under their ids, in display order.
    var sceneWidgets: [(id: String, widget: View)] { get }
}
