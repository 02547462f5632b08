import RxCore

/// The owner of a screen's widgets and bindings, like `UIViewController`: build them in
/// ``viewDidLoad()``, keep the subscriptions in a `DisposeBag` property, and when the
/// controller goes (the session ends) the bag disposes them and `rx.deallocated` fires.
open class ViewController: ReactiveCompatible, LifetimeTracked {
    /// The token behind `rx.deallocated`.
    public let lifetimeToken = LifetimeToken()

    private var loadedView: View?

    /// A controller whose view is not loaded yet.
    public init() {}

    /// The root view, loaded (``loadView()`` then ``viewDidLoad()``) on first access.
    public var view: View! {
        get {
            loadViewIfNeeded()
            return loadedView
        }
        set { loadedView = newValue }
    }

    /// Whether the view has been loaded.
    public var isViewLoaded: Bool { loadedView != nil }

    /// Makes the root view; the default makes a plain ``View``. Set ``view`` here.
    open func loadView() {
        view = View()
    }

    /// Called once, after the view is loaded: set up widgets and bindings here.
    open func viewDidLoad() {}

    // MARK: - Title, containment and editing hooks (`ViewController+Containment.swift`)

    /// The title a container shows for the controller, as `UIViewController.title`;
    /// setting it also sets ``navigationItem``'s title, as UIKit does.
    open var title: String? {
        get { storedRelations?.title }
        set {
            guard newValue != title else { return }
            relations.title = newValue
            // As in UIKit, the navigation item's title follows.
            ControllerExtras.navigationItems[ObjectIdentifier(self)]?.title = newValue
        }
    }

    /// Called before the controller is added to `parent` (by ``addChild(_:)``, at once) or
    /// removed from its parent (`nil`: the container calls it before
    /// ``removeFromParent()``). Does nothing; subclasses override it.
    open func willMove(toParent parent: ViewController?) {}

    /// Called after the controller moved to `parent` (the container calls it once its
    /// view is in place) or left it (`nil`: by ``removeFromParent()``, at once). Does
    /// nothing; subclasses override it.
    open func didMove(toParent parent: ViewController?) {}

    /// Turns editing on or off, as `UIViewController.setEditing(_:animated:)`: sets
    /// ``isEditing`` and retitles ``editButtonItem`` ("Edit" / "Done"). Subclasses
    /// override it to put their tables into editing too, calling `super`.
    open func setEditing(_ editing: Bool, animated: Bool) {
        relations.isEditing = editing
        storedRelations?.editButton?.title = editing ? "Done" : "Edit"
        storedRelations?.editButton?.style = editing ? .done : .plain
    }

    /// The parent, children, title and editing state, made on first use.
    var storedRelations: ViewControllerRelations?

    deinit {
        // Children that outlive this controller (someone else holds them) have no parent.
        if let storedRelations {
            for child in storedRelations.children { child.storedRelations?.parent = nil }
        }
    }

    /// Loads the view (and calls ``viewDidLoad()``) if that has not happened yet.
    public func loadViewIfNeeded() {
        guard loadedView == nil else { return }
        loadView()
        if loadedView == nil { loadedView = View() }
        viewDidLoad()
    }
}
