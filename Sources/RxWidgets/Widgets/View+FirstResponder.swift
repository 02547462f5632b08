/// The keyboard focus, as `UIResponder`'s first responder: a text field, text view or
/// search bar is the first responder while the user edits it. The server moves the
/// browser's focus with ``becomeFirstResponder()``, ``resignFirstResponder()`` and
/// ``endEditing(_:)`` (the wire's `focused` property), and the client's focus events
/// keep ``isFirstResponder`` true to what the user does.
///
/// As in UIKit, becoming first responder sends `editingDidBegin` (RxCocoa's
/// `didBeginEditing`) and resigning sends `editingDidEnd`; the client's own report of
/// the same focus change is then not sent again.
extension View {
    /// Whether this view can take the focus: an enabled text field, text view or search bar.
    public var canBecomeFirstResponder: Bool {
        guard let control = self as? Control, control.isEnabled else { return false }
        return control.takesTextFocus
    }

    /// Whether this view has the focus.
    public var isFirstResponder: Bool {
        (self as? Control)?.isFocused ?? false
    }

    /// Gives this view the focus (taking it from the scene's other text input, which ends
    /// editing first), as UIKit's: sends `editingDidBegin`. Returns whether it has the
    /// focus now (`false` for a view that cannot take it).
    @discardableResult
    public func becomeFirstResponder() -> Bool {
        guard let control = self as? Control, canBecomeFirstResponder else { return false }
        if control.isFocused { return true }
        for other in control.focusPeers where other !== control && other.isFocused {
            other.resignFocus()
        }
        control.setFocused(true)
        control.focusResignedByServer = false
        control.sendActions(for: .editingDidBegin)
        return true
    }

    /// Takes the focus away from this view, as UIKit's: sends `editingDidEnd` when it
    /// had it. Returns `true`.
    @discardableResult
    public func resignFirstResponder() -> Bool {
        if let control = self as? Control, control.isFocused { control.resignFocus() }
        return true
    }

    /// Ends editing in this view: resigns the focused text input among it and its
    /// subviews — for a scene's widget or its root view, any of the scene's widgets
    /// (Bindery's screens are flat). `force` is UIKit's (nothing can refuse here).
    /// Returns `true`.
    @discardableResult
    public func endEditing(_ force: Bool) -> Bool {
        if let control = self as? Control, control.takesTextFocus {
            return resignFirstResponder()
        }
        let tree = self.tree ?? editingTree
        for widget in tree?.widgets ?? [] where widget.isFirstResponder {
            widget.resignFirstResponder()
        }
        return true
    }
}

extension WidgetTree {
    /// Makes `view` (a scene's root view, which is not one of its widgets) end editing
    /// in this tree: `view.endEditing(_:)` resigns the focused widget here.
    public func setEditingRoot(_ view: View) {
        if view.editingTree === self { return }
        view.leaveEditingTree()
        view.editingTree = self
        if editingRoot == nil {
            editingRoot = view
        } else {
            EditingRoots.add(view, to: self)
        }
    }
}

extension View {
    /// Stops ending editing in its tree (it goes, or moves to another tree).
    func leaveEditingTree() {
        guard let tree = editingTree else { return }
        editingTree = nil
        if tree.editingRoot === self {
            tree.editingRoot = nil
        } else {
            EditingRoots.remove(self, from: tree)
        }
    }
}

extension Control {
    /// Text inputs take the keyboard focus.
    var takesTextFocus: Bool { self is TextField || self is TextView || self is SearchBar }

    /// The controls the focus moves between: the scene's, or just this one.
    var focusPeers: [Control] {
        tree?.widgets.compactMap { $0 as? Control } ?? [self]
    }

    func setFocused(_ focused: Bool) {
        guard focused != isFocused else { return }
        isFocused = focused
        changed(FocusProperty.focused, .bool(!focused), .bool(focused))
    }

    /// The server takes the focus away: `editingDidEnd` now, and the client's report of
    /// its blur later is not sent again.
    func resignFocus() {
        setFocused(false)
        focusResignedByServer = true
        sendActions(for: .editingDidEnd)
    }

    /// Keeps the focus state true to a user's editing events; `false` for an event
    /// already sent because the server moved the focus. The user's own focus changes are
    /// not recorded as changes: the sender's browser shows them already (the own-value
    /// rule), and another viewer's focus is that viewer's own.
    @inline(__always)  // runs for every user event (the echo path's editingChanged)
    func focusUserEventWillSend(_ event: Event) -> Bool {
        guard event == .editingDidBegin || event == .editingDidEnd else { return true }
        return focusEditingEventWillSend(event)
    }

    /// ``focusUserEventWillSend(_:)`` for `editingDidBegin` and `editingDidEnd`.
    private func focusEditingEventWillSend(_ event: Event) -> Bool {
        guard takesTextFocus else { return true }
        if event == .editingDidBegin {
            if isFocused { return false }
            // The browser has one focus: whatever the server thought focused is not.
            for other in focusPeers where other !== self && other.isFocused {
                other.isFocused = false
            }
            isFocused = true
            focusResignedByServer = false
        } else if event == .editingDidEnd {
            if focusResignedByServer {
                focusResignedByServer = false
                return false
            }
            isFocused = false
        }
        return true
    }

    /// `focused` in a snapshot, for text inputs.
    func collectFocus(into properties: inout [String: WidgetValue]) {
        if takesTextFocus { properties[FocusProperty.focused] = .bool(isFocused) }
    }
}

enum FocusProperty {
    static let focused = "focused"
}

/// The root views of trees that have more than one (rare: the first is the tree's
/// `editingRoot`). Loop-confined. Unowned both ways, as `View.editingTree`: a root
/// leaves when it goes, and a tree clears its roots when it goes.
enum EditingRoots {
    private struct Root {
        unowned(unsafe) let view: View
    }

    nonisolated(unsafe) private static var more: [ObjectIdentifier: [Root]] = [:]

    static func add(_ view: View, to tree: WidgetTree) {
        more[ObjectIdentifier(tree), default: []].append(Root(view: view))
    }

    static func remove(_ view: View, from tree: WidgetTree) {
        let key = ObjectIdentifier(tree)
        more[key]?.removeAll { $0.view === view }
        if more[key]?.isEmpty == true { more[key] = nil }
    }

    /// Clears the other roots of `tree` (from its `deinit`).
    static func forget(_ tree: WidgetTree) {
        if more.isEmpty { return }
        for root in more.removeValue(forKey: ObjectIdentifier(tree)) ?? [] {
            root.view.editingTree = nil
        }
    }
}
