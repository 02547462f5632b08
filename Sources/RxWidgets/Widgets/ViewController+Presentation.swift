import RxCore

/// Where a scene's view controllers present others (alerts): the server's scene host, or
/// a ``PresentationStack`` of your own (tests). Loop-confined.
public protocol PresentationHost: AnyObject {
    /// The presented controllers, bottom to top, each with its presenter.
    var presentations: [(presented: ViewController, presenter: ViewController)] { get }
    /// Shows `controller` over the others.
    func present(_ controller: ViewController, from presenter: ViewController)
    /// Removes `controller` and every controller presented over it.
    func dismiss(_ controller: ViewController)
}

/// A ``PresentationHost`` that keeps the stack and calls back on each change (the
/// server adds and removes the controllers' widgets there).
public final class PresentationStack: PresentationHost {
    /// The presented controllers, bottom to top.
    public private(set) var presentations: [(presented: ViewController, presenter: ViewController)] = []
    /// Called after a controller was presented.
    public var onPresent: ((ViewController) -> Void)?
    /// Called after a controller was dismissed (top first, when several go).
    public var onDismiss: ((ViewController) -> Void)?

    /// An empty stack.
    public init() {}

    /// Pushes `controller`.
    public func present(_ controller: ViewController, from presenter: ViewController) {
        presentations.append((controller, presenter))
        controller.presentationHost = self
        onPresent?(controller)
    }

    /// Pops `controller` and everything above it.
    public func dismiss(_ controller: ViewController) {
        guard let index = presentations.firstIndex(where: { $0.presented === controller }) else { return }
        while presentations.count > index {
            let top = presentations.removeLast().presented
            top.presentationHost = nil
            onDismiss?(top)
        }
    }
}

extension ViewController {
    /// The host this controller presents through: set on a scene's root controller by
    /// the server, and passed on to what it presents; a screen pushed on a navigation
    /// controller presents through its navigation controller's.
    public var presentationHost: PresentationHost? {
        get { PresentationHosts.table[ObjectIdentifier(self)]?.object as? PresentationHost ?? navigationController?.presentationHost }
        set {
            if let newValue {
                PresentationHosts.table[ObjectIdentifier(self)] = UnretainedReference(newValue)
            } else {
                PresentationHosts.table[ObjectIdentifier(self)] = nil
            }
        }
    }

    /// The controller this one presents, if any, as UIKit's.
    public var presentedViewController: ViewController? {
        presentationHost?.presentations.first { $0.presenter === self }?.presented
    }

    /// The controller that presented this one, if it is presented.
    public var presentingViewController: ViewController? {
        presentationHost?.presentations.first { $0.presented === self }?.presenter
    }

    /// Presents `viewControllerToPresent` (an ``AlertController``) over this controller,
    /// as UIKit's: clients show it modally. Presenting while already presenting, or from
    /// a controller that is not in a scene, does nothing but report it (UIKit logs a
    /// warning). `completion` runs once it is shown.
    public func present(_ viewControllerToPresent: ViewController, animated flag: Bool, completion: (() -> Void)? = nil) {
        guard let host = presentationHost else {
            Hooks.bindingErrorHandler(PresentationError.notInAScene)
            return
        }
        guard presentedViewController == nil, viewControllerToPresent.presentationHost == nil else {
            Hooks.bindingErrorHandler(PresentationError.alreadyPresenting)
            return
        }
        viewControllerToPresent.loadViewIfNeeded()
        host.present(viewControllerToPresent, from: self)
        completion?()
    }

    /// Dismisses the controller this one presents (and any above it) or, when it presents
    /// none, this controller itself, as UIKit's. `completion` runs afterwards.
    public func dismiss(animated flag: Bool, completion: (() -> Void)? = nil) {
        guard let host = presentationHost else {
            completion?()
            return
        }
        if let presented = presentedViewController {
            host.dismiss(presented)
        } else if presentingViewController != nil {
            host.dismiss(self)
        }
        completion?()
    }
}

/// Controllers' presentation hosts, by identity (an extension cannot store them).
/// Entries go when a controller is dismissed, or when the server ends the scene.
enum PresentationHosts {
    /// Not retained. A scene's host is reached through its anchor rather than `weak`,
    /// which would put every retain and release of the host on the runtime's slow path.
    nonisolated(unsafe) static var table: [ObjectIdentifier: UnretainedReference<AnyObject>] = [:]  // loop-confined
}

/// Mistakes in presenting.
public enum PresentationError: Error, Equatable, CustomStringConvertible {
    /// `present` on a controller that is not a scene's (or presented by one).
    case notInAScene
    /// `present` while the controller already presents one, or of one already shown.
    case alreadyPresenting

    /// A readable message.
    public var description: String {
        switch self {
        case .notInAScene: return "present(_:animated:) on a view controller that is not in a scene"
        case .alreadyPresenting: return "present(_:animated:) while already presenting (dismiss first)"
        }
    }
}
