/// The view hierarchy in a tree: a widget's subviews are widgets too, and adding, moving
/// and removing views reaches clients as the `subviews` property of the superviews plus
/// the views that joined or left (PROTOCOL.md, "The view tree").
extension WidgetTree {
    /// A view of this tree left the hierarchy (or moved to another tree's): it and its
    /// subviews leave, and whatever binds to them alone ends with them.
    func leftHierarchy(_ view: View) {
        guard view.tree === self else { return }
        for subview in view.subviews { leftHierarchy(subview) }
        remove(view)
        view.storedHierarchy?.sentSubviews = nil
        hierarchyHost?.hierarchyChanged(view, joined: false)
    }

    /// Records `parent`'s `subviews` when the list clients have differs from it.
    func subviewsChanged(of parent: View) {
        guard parent.tree === self else { return }
        let node = parent.hierarchy
        let old = node.sentSubviews
        // Once a container, always one: an emptied view says `[]`, as its snapshot does.
        let new: WidgetValue? = node.subviews.isEmpty && old == nil ? nil : parent.subviewsValue
        guard new != old else { return }
        node.sentSubviews = new
        record(parent, PropertyName.subviews, old: old ?? .rows([]), new: new ?? .rows([]))
    }

    /// A view added under one of this tree's widgets joins: under the id it has, its
    /// name, or a fresh one, then its subviews.
    func adopt(_ view: View) {
        guard view.tree == nil else { return }
        var id: String? = view.id.isEmpty ? name(of: view) : view.id
        if let chosen = id, widget(withID: chosen) != nil { id = nil }
        if id == nil { view.id = "" }
        // `add` adopts the subviews; a failure (an id taken meanwhile) gets a fresh one.
        if (try? add(view, id: id)) == nil {
            view.id = ""
            guard (try? add(view)) != nil else { return }
        }
        hierarchyHost?.hierarchyChanged(view, joined: true)
    }

    /// The name of the property that holds `view` in its nearest custom superview
    /// (prefixed with that view's id: `rating.stars`), or in the scene's controller.
    private func name(of view: View) -> String? {
        var ancestor = view.superview
        while let current = ancestor {
            if current.isCustomView, let label = ViewProperties.label(of: view, in: current) {
                return current.id.isEmpty ? label : "\(current.id).\(label)"
            }
            ancestor = current.superview
        }
        return hierarchyHost?.controllerName(of: view)
    }
}

/// What a ``WidgetTree`` tells of its view hierarchy (the scene's host).
package protocol WidgetTreeHierarchyHost: AnyObject {
    /// `view` joined the tree (`true`, with its id) or left it (`false`, its id still the
    /// one clients know).
    func hierarchyChanged(_ view: View, joined: Bool)
    /// The name of the scene controller's property holding `view`, if any.
    func controllerName(of view: View) -> String?
}

extension View {
    /// Whether the view's class is the app's own (a component), not one of Bindery's.
    var isCustomView: Bool {
        !String(reflecting: type(of: self)).hasPrefix("RxWidgets.")
    }
}

/// Reading the views a component (a custom view, a controller) holds in its properties.
package enum ViewProperties {
    /// The name of the stored property of `owner`'s own classes (not Bindery's) holding
    /// `view`: `_x` and lazy storage read as `x`.
    package static func label(of view: View, in owner: AnyObject) -> String? {
        var mirror: Mirror? = Mirror(reflecting: owner)
        while let current = mirror, !String(reflecting: current.subjectType).hasPrefix("RxWidgets.") {
            for child in current.children where held(child.value) === view {
                return propertyName(child.label ?? "")
            }
            mirror = current.superclassMirror
        }
        return nil
    }

    /// The view a property value holds, itself or in an optional.
    package static func held(_ value: Any) -> View? {
        if let view = value as? View { return view }
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional, let some = mirror.children.first {
            return some.value as? View
        }
        return nil
    }

    /// A stored property's name as the app wrote it.
    package static func propertyName(_ label: String) -> String {
        let lazyPrefix = "$__lazy_storage_$_"
        if label.hasPrefix(lazyPrefix) { return String(label.dropFirst(lazyPrefix.count)) }
        if label.hasPrefix("_") { return String(label.dropFirst()) }
        return label
    }
}
