import RxCore

/// A controller that can rebuild the screens above it from a URL (issue 12): the server
/// asks the top controller of a ``NavigationController``'s stack for the screen named by
/// the next component of the screen path (`/scene/team#/chen-wei` → `"chen-wei"`),
/// pushes what it returns, and asks that one for the next component, and so on. A
/// component nobody knows ends the walk there: the visitor lands on the deepest screen
/// that could be rebuilt (and the URL follows the stack).
///
/// ```swift
/// extension TeamListViewController: ScreenRestoring {
///     func viewController(forRestorationIdentifier identifier: String) -> ViewController? {
///         members.first { $0.slug == identifier }.map { TeamMemberViewController(member: $0) }
///     }
/// }
/// ```
///
/// The pushed controller's ``ViewController/restorationIdentifier`` names it in the URL;
/// when it has none, the server gives it `identifier`.
public protocol ScreenRestoring: ViewController {
    /// The controller to push above this one for the screen path component `identifier`,
    /// or nil when there is no such screen.
    func viewController(forRestorationIdentifier identifier: String) -> ViewController?
}

extension ViewController {
    /// The name of this controller's screen in the page URL, as UIKit's
    /// `restorationIdentifier`: a controller pushed on a ``NavigationController`` with one
    /// adds `/<identifier>` to the URL's screen path (`#/chen-wei`), so a reload, a
    /// resumed session or a copied link lands on it (see ``ScreenRestoring``). Nil (the
    /// default): the screen is not restorable; the URL names it by its key only.
    public var restorationIdentifier: String? {
        get { RestorationIdentifiers.table[ObjectIdentifier(self)] }
        set {
            let key = ObjectIdentifier(self)
            if RestorationIdentifiers.table[key] == nil, newValue != nil {
                // The table holds it only as long as the controller lives.
                _ = lifetimeToken.deallocated.subscribe(onNext: { RestorationIdentifiers.table[key] = nil })
            }
            RestorationIdentifiers.table[key] = newValue
        }
    }
}

extension NavigationController {
    /// The restoration identifiers of the screens above the root, bottom to top, up to the
    /// first screen without one: what the URL's screen path says.
    public var restorationPath: [String] {
        var path: [String] = []
        for controller in viewControllers.dropFirst() {
            guard let identifier = controller.restorationIdentifier else { break }
            path.append(identifier)
        }
        return path
    }

    /// Pushes the screens `path` names, asking each top controller (``ScreenRestoring``)
    /// for the next; stops at the first component nobody knows. Screens already on the
    /// stack that the path names (a scene that opened on a screen from its parameters)
    /// are kept, not pushed twice. Returns how many were pushed.
    @discardableResult
    public func restoreScreens(_ path: [String]) -> Int {
        let current = restorationPath
        guard path.count > current.count, Array(path.prefix(current.count)) == current else { return 0 }
        var pushed = 0
        for identifier in path.dropFirst(current.count) {
            guard let top = topViewController as? any ScreenRestoring,
                  let next = top.viewController(forRestorationIdentifier: identifier) else { break }
            if next.restorationIdentifier == nil { next.restorationIdentifier = identifier }
            pushViewController(next, animated: false)
            guard topViewController === next else { break }
            pushed += 1
        }
        return pushed
    }
}

/// Restoration identifiers by controller identity (an extension cannot store them).
/// Loop-confined.
enum RestorationIdentifiers {
    nonisolated(unsafe) static var table: [ObjectIdentifier: String] = [:]
}
