import BinderyProtocol
import RxCore
import RxWidgets

/// Whether each session gets its own instance of a scene, or all share one.
public enum SceneSharing: String, Sendable, Equatable {
    /// Every session builds its own view controller (the default): a form, a counter.
    case perConnection
    /// One view controller for everybody; every change is broadcast to every connected
    /// client (a shared board). Built on the first session, kept for the app's lifetime.
    case shared
}

/// A view controller that says which of its widgets clients see, and how to lay them out.
///
/// Adopting it is optional. A plain `ViewController` works too: Bindery then finds its
/// widgets by reflection — every stored property (of the controller's own classes, not
/// `ViewController`'s) holding a `View` becomes a widget, in declaration order, under
/// the widget's ``View/id`` or, when that is empty, the property's name. So
///
/// ```swift
/// final class EchoViewController: ViewController {
///     let bag = DisposeBag()
///     let input = TextField()
///     let output = Label()
///     override func viewDidLoad() {
///         super.viewDidLoad()
///         input.rx.text.orEmpty.map { $0.uppercased() }.bind(to: output.rx.text).disposed(by: bag)
///     }
/// }
/// ```
///
/// has the widgets `input` and `output`. Adopt `Scene` to choose them yourself, or to
/// give a ``SceneLayout`` for the auto-rendered page.
public protocol Scene: ViewController {
    /// The widgets clients see, in display order, each under its id (unique in the
    /// scene). The default is the reflected list described above.
    var sceneWidgets: [(id: String, widget: View)] { get }
    /// How the auto-rendered page arranges the widgets; `nil` (the default) stacks them
    /// in ``sceneWidgets`` order.
    var sceneLayout: SceneLayout? { get }
}

extension Scene {
    /// The widgets found by reflection (see ``Scene``).
    public var sceneWidgets: [(id: String, widget: View)] {
        SceneWidgets.discover(in: self)
    }

    /// No layout: widgets stacked in order.
    public var sceneLayout: SceneLayout? { nil }
}


/// Finding a view controller's widgets by reflection.
public enum SceneWidgets {
    /// The `View`s held by `controller`'s stored properties, declared in its own classes
    /// (superclasses first, stopping at `ViewController`), each under its ``View/id``
    /// or, when empty, the property's name (`_x` and lazy storage reported as `x`). A
    /// widget held twice is listed once; optional properties holding `nil` are skipped.
    public static func discover(in controller: ViewController) -> [(id: String, widget: View)] {
        var mirrors: [Mirror] = []
        var mirror: Mirror? = Mirror(reflecting: controller)
        while let current = mirror, current.subjectType != ViewController.self {
            mirrors.append(current)
            mirror = current.superclassMirror
        }
        var seen = Set<ObjectIdentifier>()
        var found: [(id: String, widget: View)] = []
        for current in mirrors.reversed() {
            for child in current.children {
                guard let widget = ViewProperties.held(child.value) else { continue }
                guard seen.insert(ObjectIdentifier(widget)).inserted else { continue }
                let id = widget.id.isEmpty ? ViewProperties.propertyName(child.label ?? "") : widget.id
                found.append((id, widget))
            }
        }
        return found
    }
}
