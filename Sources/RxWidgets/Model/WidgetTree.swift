/// The widgets of one scene instance, and the record of their property changes.
///
/// The server layer creates one per scene instance, adds the scene's widgets under
/// stable ids, and from then on every property change made on the loop is recorded
/// here as a ``WidgetChange`` (widget id, property name, value) — widgets know nothing
/// of JSON or sockets. ``onChangesPending`` tells the session that a batch has started,
/// so it can flush once per loop turn with ``takeChanges()``.
///
/// Like UIKit's view hierarchy, the tree keeps its widgets alive (a scene's view
/// controller usually holds them too); nothing global does. It is loop-confined, like
/// the widgets: use it on the main loop thread only.
public final class WidgetTree {
    /// The widgets, in the order they were added.
    public private(set) var widgets: [View] = []

    /// Called when a change is recorded while none was pending: the start of a batch.
    /// The session uses it to schedule one flush at the end of the loop turn.
    public var onChangesPending: (() -> Void)?

    private var pending: [PendingChange] = []
    /// Where each pending change is, once a batch is too big to search linearly.
    private var pendingIndex: [PendingKey: Int] = [:]
    private var byID: [String: View] = [:]
    private var indexIsStale = false
    private var autoIDCount = 0
    /// The first root view that ends editing here; any others are in `EditingRoots`
    /// (`View+FirstResponder.swift`). Unowned: a root leaves when it goes.
    unowned(unsafe) var editingRoot: View?

    /// An empty tree.
    public init() {}

    deinit {
        // Widgets point back here without a reference count: they must not outlive that.
        for widget in widgets { widget.tree = nil }
        editingRoot?.editingTree = nil
        hierarchyHost = nil
        EditingRoots.forget(self)
    }

    /// Adds `widget` under `id` (or its current ``View/id``; if both are empty, an id
    /// made from its kind, such as `label-1`). From now on its changes are recorded.
    ///
    /// - Throws: ``WidgetTreeError`` if the id is taken or the widget is already in a
    ///   tree. (A scene-building mistake; thrown rather than trapped, so one bad scene
    ///   cannot take down a server hosting others.)
    @discardableResult
    public func add<Widget: View>(_ widget: Widget, id: String? = nil) throws(WidgetTreeError) -> Widget {
        if widget.tree != nil {
            throw WidgetTreeError("widget '\(widget.id)' (\(widget.kind)) is already in a widget tree")
        }
        var chosen = id ?? widget.id
        if chosen.isEmpty {
            repeat {
                autoIDCount += 1
                chosen = "\(widget.kind)-\(autoIDCount)"
            } while self.widget(withID: chosen) != nil
        }
        if self.widget(withID: chosen) != nil {
            throw WidgetTreeError("duplicate widget id '\(chosen)'")
        }
        widget.id = chosen
        widget.tree = self
        widgets.append(widget)
        if widgets.count == Self.linearLimit + 1 {
            indexIsStale = true  // the index starts here
        } else if widgets.count > Self.linearLimit + 1, !indexIsStale {
            byID[chosen] = widget
        }
        // What a page shows is the tree under a widget: its subviews come with it.
        for subview in widget.subviews where subview.tree == nil { adopt(subview) }
        widget.didJoinTree()
        return widget
    }

    /// Adds each widget under its current ``View/id`` (see ``add(_:id:)``).
    public func add(_ widgets: [View]) throws(WidgetTreeError) {
        for widget in widgets {
            try add(widget)
        }
    }

    /// Removes `widget` and drops its pending changes.
    public func remove(_ widget: View) {
        guard widget.tree === self else { return }
        widget.tree = nil
        widgets.removeAll { $0 === widget }
        if byID[widget.id] === widget { byID[widget.id] = nil }  // not kept until the next lookup
        indexIsStale = true
        let kept = pending.filter { $0.widget !== widget }
        if kept.count != pending.count {
            pending = []
            pendingIndex = [:]
            for change in kept {
                pending.append(change)
                indexLastPending()
            }
        }
    }

    /// The widget with `id`, if any.
    public func widget(withID id: String) -> View? {
        // A small scene is searched: an index would cost more memory than it saves time.
        if widgets.count <= Self.linearLimit {
            return widgets.first { $0.id == id }
        }
        if indexIsStale {
            byID = [:]
            for widget in widgets where byID[widget.id] == nil {
                byID[widget.id] = widget
            }
            indexIsStale = false
        }
        return byID[id]
    }

    /// Every widget's id, kind and current properties, in order (for the server's
    /// `scene` message).
    public func snapshot() -> [WidgetSnapshot] {
        widgets.map { WidgetSnapshot(id: $0.id, kind: $0.kind, properties: $0.snapshot()) }
    }

    // MARK: - Changes

    /// `true` when changes were recorded since the last ``takeChanges()``.
    public var hasPendingChanges: Bool {
        !pending.isEmpty
    }

    /// The changes recorded since the last call, coalesced: one per widget property,
    /// holding the property's value before the first change of the batch and its last
    /// value, in the order properties first changed. A property that ended where it
    /// started is left out.
    public func takeChanges() -> [WidgetChange] {
        var changes: [WidgetChange] = []
        takeChanges(into: &changes)
        return changes
    }

    /// ``takeChanges()`` appending to `changes`, so a caller that drains the tree on every
    /// event can reuse one buffer.
    public func takeChanges(into changes: inout [WidgetChange]) {
        guard !pending.isEmpty else { return }
        changes.reserveCapacity(changes.count + pending.count)
        // Through the buffer: an array subscript in a comparison copies the values.
        pending.withUnsafeMutableBufferPointer { pending in
            for index in pending.indices where pending[index].value != pending[index].oldValue {
                // The values are moved out (swapped for `null`), not copied: a copy retains
                // each string and the clearing below releases it again, on every event.
                var value = WidgetValue.null
                var oldValue = WidgetValue.null
                swap(&value, &pending[index].value)
                swap(&oldValue, &pending[index].oldValue)
                let widget = pending[index].widget
                // Asked only of row lists: the echo path's changes never pay for it.
                var unique = false
                if case .rows = value { unique = widget.rowIDsAreUnique }
                changes.append(WidgetChange(widgetID: widget.id, property: pending[index].property,
                                            value: consume value, oldValue: consume oldValue, rowIDsAreUnique: unique))
            }
        }
        pending.removeAll(keepingCapacity: true)
        if !pendingIndex.isEmpty { pendingIndex = [:] }
    }

    /// Called by a widget in this tree when one of its properties changed.
    func record(_ widget: View, _ property: String, old: WidgetValue, new: WidgetValue) {
        if let index = pendingPosition(of: widget, property) {
            pending[index].value = new
            return
        }
        let wasEmpty = pending.isEmpty
        // Built in place: handed through a parameter, the change would be copied.
        pending.append(PendingChange(widget: widget, property: property, value: new, oldValue: old))
        indexLastPending()
        if wasEmpty {
            onChangesPending?()
        }
    }

    /// A batch is usually a handful of changes: a linear search beats hashing the
    /// property name. Past `linearLimit` the dictionary takes over.
    private static let linearLimit = 16

    private func pendingPosition(of widget: View, _ property: String) -> Int? {
        if pending.count <= Self.linearLimit {
            // By index, not `firstIndex(where:)`, which copies each change (its values).
            for index in pending.indices where pending[index].widget === widget && pending[index].property == property {
                return index
            }
            return nil
        }
        return pendingIndex[PendingKey(widget: ObjectIdentifier(widget), property: property)]
    }

    /// Keeps the index up to date after an append (once there is one).
    private func indexLastPending() {
        guard pending.count > Self.linearLimit else { return }
        if pending.count == Self.linearLimit + 1 {
            for index in pending.indices {
                pendingIndex[PendingKey(widget: ObjectIdentifier(pending[index].widget), property: pending[index].property)] = index
            }
        } else {
            let last = pending.count - 1
            pendingIndex[PendingKey(widget: ObjectIdentifier(pending[last].widget), property: pending[last].property)] = last
        }
    }

    // MARK: - The view hierarchy (`WidgetTree+Hierarchy.swift`)

    /// Who hears of views joining and leaving through the hierarchy, and names them: the
    /// scene's host. Not retained (the host owns the tree and clears this when it goes);
    /// a stored reference, not closures, so an idle session pays no allocation for it.
    package unowned(unsafe) var hierarchyHost: (any WidgetTreeHierarchyHost)?

    /// Called by a widget in this tree when its id changed.
    func widgetIDChanged() {
        indexIsStale = true
    }
}

private struct PendingKey: Hashable {
    let widget: ObjectIdentifier
    let property: String
}

private struct PendingChange {
    /// Not retained: every change recorded, copied and dropped on the per-event path
    /// would otherwise retain and release the widget (through its side table, as bound
    /// widgets are weakly referenced). Safe because the tree holds its widgets and
    /// ``WidgetTree/remove(_:)`` drops a widget's pending changes with it.
    unowned(unsafe) let widget: View
    let property: String
    var value: WidgetValue
    var oldValue: WidgetValue
}

/// One widget property's change, as the server sends it to clients.
public struct WidgetChange: Equatable, Sendable, CustomStringConvertible {
    /// The widget's ``View/id``.
    public let widgetID: String
    /// The property's name (`text`, `value`, `backgroundColor`, ...).
    public let property: String
    /// The new value.
    public let value: WidgetValue
    /// The value before the batch's first change (for keyed list diffs, see
    /// ``ListRow/changes(from:to:)``).
    public let oldValue: WidgetValue
    /// Whether the widget guarantees that the rows of `value` and `oldValue` have unique
    /// ids (a table's row keys), so a keyed diff need not check them.
    public let rowIDsAreUnique: Bool

    /// A change record.
    public init(widgetID: String, property: String, value: WidgetValue, oldValue: WidgetValue,
                rowIDsAreUnique: Bool = false) {
        self.widgetID = widgetID
        self.property = property
        self.value = value
        self.oldValue = oldValue
        self.rowIDsAreUnique = rowIDsAreUnique
    }

    /// `id.property = value`.
    public var description: String {
        "\(widgetID).\(property) = \(value)"
    }
}

/// A widget's id, kind and properties at one moment.
public struct WidgetSnapshot: Equatable, Sendable {
    /// The widget's ``View/id``.
    public let id: String
    /// The widget's ``View/kind`` (`slider`, `label`, ...).
    public let kind: String
    /// Every property the client renders, by name.
    public let properties: [String: WidgetValue]

    /// A snapshot.
    public init(id: String, kind: String, properties: [String: WidgetValue]) {
        self.id = id
        self.kind = kind
        self.properties = properties
    }
}

/// A mistake in building a widget tree (a duplicate id, a widget added twice).
public struct WidgetTreeError: Error, Equatable, CustomStringConvertible {
    /// What went wrong.
    public let message: String

    init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
