import RxCore

/// A stack of screens, as `UINavigationController`: the top one is shown, with a bar
/// holding its title, bar button items and a back button to the one under it. Make it a
/// scene's root (`registry.register("repos") { NavigationController(rootViewController:
/// ReposViewController()) }`); pushed screens' widgets join the scene while they are on
/// the stack, and a client's Back (`back`) pops, as UIKit's back button does.
open class NavigationController: ViewController {
    /// The stack, bottom (root) to top.
    public private(set) var viewControllers: [ViewController] = []

    private var screens: [ObjectIdentifier: Screen] = [:]
    private var screenCount = 0

    /// A screen on the stack: its key and the widgets the server added for it.
    struct Screen {
        let key: String
        let isRoot: Bool
        var widgets: [View] = []
        var barItems: [BarButtonItem] = []
        var isHosted = false
    }

    /// A stack holding `rootViewController`.
    public init(rootViewController: ViewController) {
        super.init()
        setViewControllers([rootViewController], animated: false)
    }

    /// An empty stack.
    public override init() {
        super.init()
    }

    /// The top screen's controller.
    public var topViewController: ViewController? { viewControllers.last }

    /// What is visible: a controller presented over the top one, or the top one.
    public var visibleViewController: ViewController? { presentedViewController ?? topViewController }

    /// The bar and the stack, as clients see them (kind `navigationController`).
    public var navigationView: NavigationView { view as! NavigationView }

    override open func loadView() {
        view = NavigationView(navigationController: self)
    }

    /// Where pushed screens' widgets go (the server); set by it on a scene's root.
    public var screenHost: ScreenHost? {
        get { ControllerExtras.screenHosts[ObjectIdentifier(self)]?.host }
        set {
            ControllerExtras.screenHosts[ObjectIdentifier(self)] = newValue.map { WeakScreenHost(host: $0) }
            // Screens pushed before the host came (the root) get their widgets now.
            for controller in viewControllers { host(controller) }
            stackDidChange()
        }
    }

    // MARK: - The stack

    /// Pushes `viewController` (a controller already on a stack is a mistake UIKit raises
    /// on: reported, and ignored).
    open func pushViewController(_ viewController: ViewController, animated: Bool) {
        guard viewController.navigationController == nil else {
            Hooks.bindingErrorHandler(NavigationError.alreadyOnAStack)
            return
        }
        viewControllers.append(viewController)
        show(viewController)
        stackDidChange()
    }

    /// Pops the top screen and returns it; `nil` (and nothing happens) at the root.
    @discardableResult
    open func popViewController(animated: Bool) -> ViewController? {
        guard viewControllers.count > 1 else { return nil }
        let top = viewControllers.removeLast()
        hide(top)
        stackDidChange()
        return top
    }

    /// Pops every screen above `viewController` and returns them (top last); `nil` when
    /// it is not on the stack.
    @discardableResult
    open func popToViewController(_ viewController: ViewController, animated: Bool) -> [ViewController]? {
        guard let index = viewControllers.firstIndex(where: { $0 === viewController }) else { return nil }
        let popped = Array(viewControllers[(index + 1)...])
        viewControllers.removeSubrange((index + 1)...)
        for controller in popped.reversed() { hide(controller) }
        if !popped.isEmpty { stackDidChange() }
        return popped
    }

    /// Pops every screen above the root and returns them.
    @discardableResult
    open func popToRootViewController(animated: Bool) -> [ViewController]? {
        guard let root = viewControllers.first else { return nil }
        return popToViewController(root, animated: animated)
    }

    /// Replaces the stack (controllers kept keep their screens).
    open func setViewControllers(_ viewControllers: [ViewController], animated: Bool) {
        let old = self.viewControllers
        for controller in old.reversed() where !viewControllers.contains(where: { $0 === controller }) {
            hide(controller)
        }
        self.viewControllers = []
        for controller in viewControllers {
            if controller.navigationController != nil && !old.contains(where: { $0 === controller }) {
                Hooks.bindingErrorHandler(NavigationError.alreadyOnAStack)
                continue
            }
            self.viewControllers.append(controller)
            if screens[ObjectIdentifier(controller)] == nil { show(controller) }
        }
        stackDidChange()
    }

    /// The key of `viewController`'s screen (`screen-2`), if it is on the stack.
    public func screenKey(of viewController: ViewController) -> String? {
        screens[ObjectIdentifier(viewController)]?.key
    }

    /// Screens in stack order, for the view.
    var screenList: [(controller: ViewController, screen: Screen)] {
        viewControllers.compactMap { controller in screens[ObjectIdentifier(controller)].map { (controller, $0) } }
    }

    private func show(_ controller: ViewController) {
        screenCount += 1
        let key = "screen-\(screenCount)"
        controller.navigationController = self
        controller.loadViewIfNeeded()
        let isRoot = screens.isEmpty && viewControllers.first === controller
        screens[ObjectIdentifier(controller)] = Screen(key: key, isRoot: isRoot)
        let item = controller.navigationItem
        item.onChange = { [weak self] in self?.stackDidChange() }
        item.onItemReplaced = { [weak self, weak controller] old in
            guard let self, let controller else { return }
            self.barItemsChanged(of: controller, replaced: old)
        }
        host(controller)
    }

    /// Has the server add the screen's widgets (once it has a host).
    private func host(_ controller: ViewController) {
        guard let host = screenHost, var screen = screens[ObjectIdentifier(controller)], !screen.isHosted else { return }
        // The root screen's widgets keep their names; pushed ones are prefixed by their key.
        screen.widgets = host.addWidgets(of: controller, prefix: screen.isRoot ? nil : screen.key)
        screen.isHosted = true
        screens[ObjectIdentifier(controller)] = screen
        barItemsChanged(of: controller, replaced: nil)
    }

    private func hide(_ controller: ViewController) {
        guard let screen = screens.removeValue(forKey: ObjectIdentifier(controller)) else { return }
        controller.navigationItem.onChange = nil
        controller.navigationItem.onItemReplaced = nil
        screenHost?.removeWidgets(screen.barItems + screen.widgets)
        controller.navigationController = nil
    }

    private func barItemsChanged(of controller: ViewController, replaced old: BarButtonItem?) {
        guard var screen = screens[ObjectIdentifier(controller)], screen.isHosted else { return }
        let item = controller.navigationItem
        let current = [item.leftBarButtonItem, item.rightBarButtonItem].compactMap { $0 }
        let gone = screen.barItems.filter { kept in !current.contains { $0 === kept } }
        let new = current.filter { item in !screen.barItems.contains { $0 === item } }
        screenHost?.removeWidgets(gone)
        for barItem in new {
            let side = barItem === item.leftBarButtonItem ? "leftBarButtonItem" : "rightBarButtonItem"
            screenHost?.addWidget(barItem, id: "\(screen.key).\(side)")
        }
        screen.barItems = current
        screens[ObjectIdentifier(controller)] = screen
    }

    private func stackDidChange() {
        guard isViewLoaded else { return }
        navigationView.stackDidChange()
    }
}

/// Where a ``NavigationController`` puts its screens' widgets: the server (which finds
/// a controller's widgets as for a scene) adds them to the scene and removes them when
/// the screen is popped.
public protocol ScreenHost: AnyObject {
    /// Adds `controller`'s widgets, each under `prefix.<id>` (or its plain id when
    /// `prefix` is `nil`); returns them.
    func addWidgets(of controller: ViewController, prefix: String?) -> [View]
    /// Adds one widget under `id` (or a fresh id if taken).
    func addWidget(_ widget: View, id: String)
    /// Removes widgets added before.
    func removeWidgets(_ widgets: [View])
}

/// Mistakes in using a ``NavigationController``.
public enum NavigationError: Error, Equatable, CustomStringConvertible {
    /// Pushing a controller that is already on a stack.
    case alreadyOnAStack

    /// A readable message.
    public var description: String {
        switch self {
        case .alreadyOnAStack: return "the view controller is already on a navigation stack"
        }
    }
}

extension ViewController {
    /// The navigation controller whose stack holds this controller, if any.
    public internal(set) var navigationController: NavigationController? {
        get { ControllerExtras.navigationControllers[ObjectIdentifier(self)]?.controller }
        set {
            ControllerExtras.navigationControllers[ObjectIdentifier(self)] = newValue.map { WeakNavigation(controller: $0) }
        }
    }

    /// What this controller's screen shows in a navigation bar (made on first use).
    public var navigationItem: NavigationItem {
        if let item = ControllerExtras.navigationItems[ObjectIdentifier(self)] { return item }
        let item = NavigationItem()
        item.title = title
        let key = ObjectIdentifier(self)
        ControllerExtras.navigationItems[key] = item
        // The table holds it only as long as the controller lives.
        _ = lifetimeToken.deallocated.subscribe(onNext: { ControllerExtras.navigationItems[key] = nil })
        return item
    }
}

/// State UIKit keeps on every view controller, kept here by identity (an extension
/// cannot store it). Loop-confined.
enum ControllerExtras {
    nonisolated(unsafe) static var navigationItems: [ObjectIdentifier: NavigationItem] = [:]
    nonisolated(unsafe) static var navigationControllers: [ObjectIdentifier: WeakNavigation] = [:]
    nonisolated(unsafe) static var screenHosts: [ObjectIdentifier: WeakScreenHost] = [:]
}

struct WeakNavigation {
    weak var controller: NavigationController?
}

struct WeakScreenHost {
    weak var host: ScreenHost?
}
