import Foundation
import RxCore

/// The base widget model, like `UIView`: a background colour, visibility and opacity.
///
/// Widgets live on the server, on the main (loop) thread: they are not thread-safe and
/// not `Sendable`; touch them only on the loop (bindings get there through `Binder`'s
/// main scheduler). Once in a ``WidgetTree`` under a stable ``id``, every property change
/// is recorded there for the server to send out. Setting a property in code never sends
/// a control event.
open class View: ReactiveCompatible, LifetimeTracked, LifetimeAnchored {
    /// The token behind `rx.deallocated`; it dies with the widget.
    public let lifetimeToken = LifetimeToken()

    /// The widget's id in its scene (`"slider"`, `"loginButton"`): how clients and the
    /// change records name it. Set it before adding the widget to a ``WidgetTree``
    /// (or pass it to ``WidgetTree/add(_:id:)``); ids are unique within a tree.
    public var id: String = "" {
        didSet {
            if id != oldValue { tree?.widgetIDChanged() }
        }
    }

    /// The tree recording this widget's changes, if any. The tree owns its widgets, so
    /// this is not retained; nor `weak`, because every property change reads it and a
    /// weak reference costs a side-table lookup each time. Safe because the tree clears
    /// it when it removes the widget or is deinitialised itself.
    unowned(unsafe) var tree: WidgetTree?

    /// The tree this view ends editing in as a scene's root view, which is not one of its
    /// widgets (`View+FirstResponder.swift`). Unowned for the reason `tree` is: the tree
    /// clears it when it goes, and the view leaves the tree when it goes first.
    unowned(unsafe) var editingTree: WidgetTree?

    /// A view with UIKit's defaults (no background, visible, opaque) at `frame` in its
    /// superview's coordinates, as `UIView(frame:)`. The browser lays the page out, so
    /// the frame is the app's record, not where the view is drawn.
    public init(frame: CGRect) {
        if frame != .zero { hierarchy.frame = frame }
    }

    /// A view with a zero frame, as `UIView()`.
    public convenience init() {
        self.init(frame: .zero)
    }

    /// UIKit's initializer for views from an archive. Bindery has no archives, so this is
    /// the view `init(frame: .zero)` makes; it is here so that subclasses written for UIKit
    /// (`required init?(coder:)`) compile.
    public required init?(coder: NSCoder) {}

    /// The superview, subviews, tag and frame, made on first use (`View+Hierarchy.swift`).
    var storedHierarchy: ViewHierarchy?

    /// What binders and control properties refer to this view through, made on first use.
    private var storedAnchor: LifetimeAnchor?

    /// The anchor that binders and control properties hold instead of a `weak` reference
    /// (which would put every retain and release of the view on the slow path).
    public final var lifetimeAnchor: LifetimeAnchor {
        LifetimeAnchor.anchor(of: self, in: &storedAnchor)
    }

    /// Ends the anchor: references read `nil` from here on. Subclasses whose `deinit`
    /// sends anything (a control completing its subscriptions) call it first.
    final func endLifetimeAnchor() {
        storedAnchor?.end()
    }

    deinit {
        endLifetimeAnchor()
        if editingTree != nil { leaveEditingTree() }
        // Subviews that outlive this view (someone else holds them) have no superview.
        if let storedHierarchy {
            for subview in storedHierarchy.subviews { subview.storedHierarchy?.superview = nil }
        }
    }

    // MARK: - Override hooks (UIKit's, called in UIKit's order: `View+Hierarchy.swift`)

    /// Called on the superview after `subview` was added (also when it moved here from
    /// another superview). Does nothing; subclasses override it.
    open func didAddSubview(_ subview: View) {}

    /// Called on the superview before `subview` leaves it (removed, or moved to another
    /// superview). Does nothing; subclasses override it.
    open func willRemoveSubview(_ subview: View) {}

    /// Called before the view moves to `newSuperview` (`nil`: it is being removed).
    open func willMove(toSuperview newSuperview: View?) {}

    /// Called after the view moved to a new superview (or was removed: then
    /// ``superview`` is `nil`).
    open func didMoveToSuperview() {}


    /// A widget with UIKit's defaults and the id `id`.
    public convenience init(id: String) {
        self.init()
        self.id = id
    }

    /// The kind of widget, as clients render it (`view`, `label`, `slider`, ...).
    public var kind: String { "view" }

    /// Whether the rows this widget records (its `rows` values) always have unique ids,
    /// so patches need not check (a table's row keys are unique by construction).
    var rowIDsAreUnique: Bool { false }

    // MARK: - Properties

    /// The background colour; `nil` (the default) is transparent.
    public var backgroundColor: Color? {
        didSet {
            if backgroundColor != oldValue {
                changed(PropertyName.backgroundColor, WidgetValue(oldValue), WidgetValue(backgroundColor))
            }
        }
    }

    /// Whether the widget is hidden. Default `false`.
    public var isHidden: Bool = false {
        didSet {
            if isHidden != oldValue {
                changed(PropertyName.isHidden, .bool(oldValue), .bool(isHidden))
            }
        }
    }

    /// The opacity, `0...1` (other values are clamped, as UIKit reads them). Default 1.
    public var alpha: CGFloat {
        get { storedAlpha }
        set {
            let clamped = newValue.isNaN ? 0 : min(max(newValue, 0), 1)
            let old = storedAlpha
            storedAlpha = clamped
            if clamped != old {
                changed(PropertyName.alpha, WidgetValue(old), WidgetValue(clamped))
            }
        }
    }

    private var storedAlpha: CGFloat = 1

    /// What assistive technologies call the widget (`UIAccessibility`'s
    /// `accessibilityLabel`): the auto-rendered page shows it as the control's caption
    /// and uses it as its accessible name. `nil` (the default): the title, a caption from
    /// the layout, or the placeholder names it. Sent only when set.
    public var accessibilityLabel: String? {
        didSet {
            if accessibilityLabel != oldValue {
                changed(PropertyName.accessibilityLabel, WidgetValue(oldValue), WidgetValue(accessibilityLabel))
            }
        }
    }

    // MARK: - The server's side

    /// Every property a client renders, by name, with its current value.
    public final func snapshot() -> [String: WidgetValue] {
        var properties: [String: WidgetValue] = [:]
        collectProperties(into: &properties)
        return properties
    }

    /// Adds this widget's properties to `properties`; subclasses add theirs after
    /// calling `super`.
    func collectProperties(into properties: inout [String: WidgetValue]) {
        properties[PropertyName.backgroundColor] = WidgetValue(backgroundColor)
        properties[PropertyName.isHidden] = .bool(isHidden)
        properties[PropertyName.alpha] = WidgetValue(alpha)
        if let accessibilityLabel { properties[PropertyName.accessibilityLabel] = .string(accessibilityLabel) }
        // Only containers say so: a leaf's snapshot stays as small as it was.
        if let storedHierarchy, !storedHierarchy.subviews.isEmpty || storedHierarchy.sentSubviews != nil { properties[PropertyName.subviews] = subviewsValue }
    }

    /// Called when the view joined a ``WidgetTree`` (its first snapshot goes out now), so
    /// a widget whose changes are diffs against what clients have can start from it.
    func didJoinTree() {
        if let storedHierarchy { storedHierarchy.sentSubviews = storedHierarchy.subviews.isEmpty ? nil : subviewsValue }
    }

    /// The property a user's input sets (`value` for a slider, `text` for a text
    /// field), or `nil` when users cannot set one.
    public var valueProperty: String? { nil }

    /// Applies a value that came from a user (a client's event) to the property named
    /// `property`, with UIKit's rules: a slider or stepper clamps to its range, a segment
    /// index outside `-1..<numberOfSegments` is an error. Sends no control event (see
    /// `Control.sendUserEvent(_:value:)` for the whole user action).
    ///
    /// - Returns: the value the property now holds (it differs from `value` when it was
    ///   clamped, so the server knows to send it back).
    /// - Throws: ``WidgetInputError`` `unknownProperty` if users cannot set `property`
    ///   on this widget, `badValue` for a value of the wrong type or out of range.
    @discardableResult
    public final func applyUserInput(property: String, value: WidgetValue) throws(WidgetInputError) -> WidgetValue {
        guard property == valueProperty else {
            throw WidgetInputError(.unknownProperty, "\(kind) '\(id)' has no property '\(property)' that users can set")
        }
        return try applyValue(value)
    }

    /// Sets ``valueProperty`` from a user's value; overridden by widgets that have one.
    func applyValue(_ value: WidgetValue) throws(WidgetInputError) -> WidgetValue {
        throw WidgetInputError(.unknownProperty, "\(kind) '\(id)' has no property users can set")
    }

    /// A `badValue` error naming this widget and `property`.
    func badValue(_ property: String, _ expected: String, _ value: WidgetValue) -> WidgetInputError {
        // Integral numbers as integers: "got 42", not "got 42.0".
        let shown: String
        if case .number(let number) = value, number == number.rounded(), abs(number) < 1e15 {
            shown = String(Int64(number))
        } else {
            shown = value.description
        }
        return WidgetInputError(.badValue, "\(kind) '\(id)': \(property) must be \(expected), got \(shown)")
    }

    /// Records a change of `property` in the tree, if the widget is in one. The values
    /// are built only then.
    @inline(__always)
    final func changed(_ property: String, _ old: @autoclosure () -> WidgetValue, _ new: @autoclosure () -> WidgetValue) {
        if let tree {
            tree.record(self, property, old: old(), new: new())
        }
    }
}
