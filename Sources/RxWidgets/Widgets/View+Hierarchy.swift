import Foundation

/// A view's place in a view hierarchy: its superview, subviews, tag and geometry.
///
/// Kept out of line and made on first use, so a view nobody arranges (most of a scene's
/// widgets until they are placed) costs one pointer. Loop-confined, as views are.
final class ViewHierarchy {
    /// Not retained: the superview retains its subviews, and clears this when it goes.
    unowned(unsafe) var superview: View?
    var subviews: [View] = []
    var tag = 0
    var frame = CGRect.zero
    var boundsOrigin = CGPoint.zero
    /// The subviews' ids as clients last heard them, while the view is in a tree.
    var sentSubviews: WidgetValue?
}

extension View {
    /// The hierarchy record, made on first use.
    var hierarchy: ViewHierarchy {
        if let storedHierarchy { return storedHierarchy }
        let made = ViewHierarchy()
        storedHierarchy = made
        return made
    }

    // MARK: - The hierarchy

    /// The view this one is a subview of, as `UIView.superview`; `nil` for a root.
    public var superview: View? { storedHierarchy?.superview }

    /// The subviews, back to front (the last is on top), as `UIView.subviews`.
    public var subviews: [View] { storedHierarchy?.subviews ?? [] }

    /// Adds `view` on top of the other subviews, as `UIView.addSubview(_:)`: a view that
    /// has another superview leaves it first; one that is already a subview here moves to
    /// the top. Adding the view itself or one of its ancestors does nothing (UIKit throws).
    public func addSubview(_ view: View) {
        insert(view, at: subviews.count)
    }

    /// Inserts `view` at `index` of ``subviews`` (clamped to `0...subviews.count`), as
    /// `UIView.insertSubview(_:at:)`.
    public func insertSubview(_ view: View, at index: Int) {
        insert(view, at: index)
    }

    /// Inserts `view` just above `sibling`; on top when `sibling` is not a subview.
    public func insertSubview(_ view: View, aboveSubview sibling: View) {
        guard view !== sibling else { return }
        if let index = indexOfSubview(sibling) {
            insert(view, at: index + 1)
        } else {
            addSubview(view)
        }
    }

    /// Inserts `view` just below `sibling`; at the back when `sibling` is not a subview.
    public func insertSubview(_ view: View, belowSubview sibling: View) {
        guard view !== sibling else { return }
        insert(view, at: indexOfSubview(sibling) ?? 0)
    }

    /// Takes the view out of its superview, as `UIView.removeFromSuperview()`: the
    /// superview's ``willRemoveSubview(_:)``, then ``willMove(toSuperview:)`` with `nil`,
    /// then ``didMoveToSuperview()``. Nothing happens for a view without a superview.
    public func removeFromSuperview() {
        guard let parent = superview else { return }
        parent.willRemoveSubview(self)
        willMove(toSuperview: nil)
        parent.detach(self)
        didMoveToSuperview()
        parent.tree?.subviewsChanged(of: parent)
        tree?.leftHierarchy(self)
    }

    /// Moves `view` on top of its siblings, as `UIView.bringSubviewToFront(_:)`.
    public func bringSubviewToFront(_ view: View) {
        guard let index = indexOfSubview(view) else { return }
        let node = hierarchy
        node.subviews.remove(at: index)
        node.subviews.append(view)
        tree?.subviewsChanged(of: self)
    }

    /// Moves `view` behind its siblings, as `UIView.sendSubviewToBack(_:)`.
    public func sendSubviewToBack(_ view: View) {
        guard let index = indexOfSubview(view) else { return }
        let node = hierarchy
        node.subviews.remove(at: index)
        node.subviews.insert(view, at: 0)
        tree?.subviewsChanged(of: self)
    }

    /// Swaps the subviews at `index1` and `index2`, as
    /// `UIView.exchangeSubview(at:withSubviewAt:)`; indexes outside ``subviews`` do nothing.
    public func exchangeSubview(at index1: Int, withSubviewAt index2: Int) {
        guard let node = storedHierarchy, node.subviews.indices.contains(index1),
              node.subviews.indices.contains(index2) else { return }
        node.subviews.swapAt(index1, index2)
        tree?.subviewsChanged(of: self)
    }

    /// Whether this view is `view` or one of its subviews at any depth, as
    /// `UIView.isDescendant(of:)`.
    public func isDescendant(of view: View) -> Bool {
        var current: View? = self
        while let candidate = current {
            if candidate === view { return true }
            current = candidate.superview
        }
        return false
    }

    /// A number the app gives the view to find it again (``viewWithTag(_:)``). Default 0.
    public var tag: Int {
        get { storedHierarchy?.tag ?? 0 }
        set {
            guard newValue != tag else { return }
            hierarchy.tag = newValue
        }
    }

    /// The first view whose ``tag`` is `tag`: this view, then its subviews depth first,
    /// as `UIView.viewWithTag(_:)`.
    public func viewWithTag(_ tag: Int) -> View? {
        if self.tag == tag { return self }
        for subview in subviews {
            if let found = subview.viewWithTag(tag) { return found }
        }
        return nil
    }

    // MARK: - Geometry

    /// The view's rectangle in its superview's coordinates, as `UIView.frame`. Bindery
    /// keeps it for the app (the browser lays the page out): setting it keeps the
    /// ``bounds`` origin and gives the bounds the same size.
    public var frame: CGRect {
        get { storedHierarchy?.frame ?? .zero }
        set {
            guard newValue != frame else { return }
            hierarchy.frame = newValue
        }
    }

    /// The view's rectangle in its own coordinates, as `UIView.bounds`: the origin its
    /// content is scrolled to and the frame's size. Setting it resizes the frame about
    /// its ``center``.
    public var bounds: CGRect {
        get {
            guard let node = storedHierarchy else { return .zero }
            return CGRect(origin: node.boundsOrigin, size: node.frame.size)
        }
        set {
            let node = hierarchy
            let center = self.center
            node.boundsOrigin = newValue.origin
            node.frame = CGRect(x: center.x - newValue.width / 2, y: center.y - newValue.height / 2,
                                width: newValue.width, height: newValue.height)
        }
    }

    /// The frame's centre, as `UIView.center`; setting it moves the frame.
    public var center: CGPoint {
        get { CGPoint(x: frame.midX, y: frame.midY) }
        set {
            let size = frame.size
            frame = CGRect(x: newValue.x - size.width / 2, y: newValue.y - size.height / 2,
                           width: size.width, height: size.height)
        }
    }

    // MARK: - Private

    private func indexOfSubview(_ view: View) -> Int? {
        guard view.superview === self else { return nil }
        return storedHierarchy?.subviews.firstIndex { $0 === view }
    }

    /// Puts `view` at `index` of the subviews, with the hooks UIKit calls around it.
    private func insert(_ view: View, at index: Int) {
        guard !isDescendant(of: view) else { return }  // itself or an ancestor: a cycle
        let node = hierarchy
        if view.superview === self {
            // Already here: only the order changes, and UIKit calls no hooks.
            guard let from = indexOfSubview(view) else { return }
            node.subviews.remove(at: from)
            node.subviews.insert(view, at: min(max(index > from ? index - 1 : index, 0), node.subviews.count))
            tree?.subviewsChanged(of: self)
            return
        }
        view.willMove(toSuperview: self)
        let old = view.superview
        if let old {
            old.willRemoveSubview(view)
            old.detach(view)
        }
        node.subviews.insert(view, at: min(max(index, 0), node.subviews.count))
        view.hierarchy.superview = self
        view.didMoveToSuperview()
        didAddSubview(view)
        // What a page shows is the tree: the view joins this view's scene (or leaves its
        // old one), and both superviews' lists reach clients.
        if let moved = view.tree, moved !== tree { moved.leftHierarchy(view) }
        if let old, let oldTree = old.tree, oldTree !== tree { oldTree.subviewsChanged(of: old) }
        if let tree {
            if view.tree == nil { tree.adopt(view) }
            if let old, old.tree === tree { tree.subviewsChanged(of: old) }
            tree.subviewsChanged(of: self)
        }
    }

    /// The subviews' ids, as the `subviews` property clients get.
    var subviewsValue: WidgetValue {
        .rows(subviews.map { ListRow(id: $0.id, fields: [:]) })
    }

    /// Drops `view` from the subviews and clears its superview, with no hooks.
    private func detach(_ view: View) {
        guard let node = storedHierarchy, let index = node.subviews.firstIndex(where: { $0 === view }) else { return }
        view.storedHierarchy?.superview = nil
        node.subviews.remove(at: index)
    }
}
