import RxCore

/// A controller's parent, children, title and editing state, kept out of line and made
/// on first use: a scene's one controller that uses none of them costs one pointer.
/// Loop-confined, as controllers are.
final class ViewControllerRelations {
    /// Not retained: the parent retains its children, and clears this when it goes.
    unowned(unsafe) var parent: ViewController?
    var children: [ViewController] = []
    var title: String?
    var isEditing = false
    var editButton: BarButtonItem?
    var editButtonTap: Disposable?

    deinit { editButtonTap?.dispose() }
}

extension ViewController {
    var relations: ViewControllerRelations {
        if let storedRelations { return storedRelations }
        let made = ViewControllerRelations()
        storedRelations = made
        return made
    }

    // MARK: - Containment

    /// The controller this one is a child of, as `UIViewController.parent`.
    public var parent: ViewController? { storedRelations?.parent }

    /// The child controllers, in the order they were added, as `UIViewController.children`.
    public var children: [ViewController] { storedRelations?.children ?? [] }

    /// Makes `child` a child of this controller, as `UIViewController.addChild(_:)`: it
    /// leaves another parent first, then gets ``willMove(toParent:)`` with this
    /// controller. Call `child.didMove(toParent: self)` once its view is in place. Adding
    /// a child already here, this controller itself or one of its ancestors does nothing.
    public func addChild(_ child: ViewController) {
        guard child.parent !== self else { return }
        var ancestor: ViewController? = self
        while let candidate = ancestor {
            if candidate === child { return }
            ancestor = candidate.parent
        }
        if child.parent != nil { child.removeFromParent() }
        child.willMove(toParent: self)
        relations.children.append(child)
        child.relations.parent = self
    }

    /// Takes the controller out of its parent, as `UIViewController.removeFromParent()`:
    /// call `willMove(toParent: nil)` (and take its view out) first; this calls
    /// ``didMove(toParent:)`` with `nil`. Nothing happens without a parent.
    public func removeFromParent() {
        guard let parent, let siblings = parent.storedRelations,
              let index = siblings.children.firstIndex(where: { $0 === self }) else { return }
        storedRelations?.parent = nil
        siblings.children.remove(at: index)  // may release this controller: call the hook first
        withExtendedLifetime(self) { didMove(toParent: nil) }
    }

    // MARK: - Title and editing

    /// Whether the controller is editing its content, as `UIViewController.isEditing`;
    /// setting it calls ``setEditing(_:animated:)`` without animation.
    public var isEditing: Bool {
        get { storedRelations?.isEditing ?? false }
        set { setEditing(newValue, animated: false) }
    }

    /// A bar button item that toggles editing, as `UIViewController.editButtonItem`:
    /// "Edit" while not editing, "Done" (in the done style) while editing; a tap calls
    /// ``setEditing(_:animated:)`` with the opposite of ``isEditing``. Made on first use.
    public var editButtonItem: BarButtonItem {
        if let button = storedRelations?.editButton { return button }
        let button = BarButtonItem(title: isEditing ? "Done" : "Edit", style: isEditing ? .done : .plain)
        let relations = self.relations
        relations.editButton = button
        relations.editButtonTap = button.register(.primaryActionTriggered) { [unowned(unsafe) self] control in
            guard control != nil else { return }  // the item went
            self.setEditing(!self.isEditing, animated: true)
        }
        return button
    }
}
