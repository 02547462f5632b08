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

    /// Loads the view (and calls ``viewDidLoad()``) if that has not happened yet.
    public func loadViewIfNeeded() {
        guard loadedView == nil else { return }
        loadView()
        if loadedView == nil { loadedView = View() }
        viewDidLoad()
    }
}
