import Foundation

/// The direction a stack view arranges its views in (UIKit's `NSLayoutConstraint.Axis`).
public enum LayoutAxis: Int, Sendable {
    /// Side by side.
    case horizontal
    /// Top to bottom.
    case vertical

    var name: String { self == .horizontal ? "horizontal" : "vertical" }
}

/// Lays a row or column of views out, like `UIStackView`: its ``arrangedSubviews``, in
/// order, along ``axis``, ``spacing`` apart (or a custom spacing after one of them), sized
/// by ``distribution`` and placed across the axis by ``alignment``. The browser renders it
/// as a flexbox.
///
/// As in UIKit, arranging a view also makes it a subview; ``removeArrangedSubview(_:)``
/// stops arranging a view but leaves it a subview (call `removeFromSuperview()` to take it
/// away, which also stops arranging it); a hidden arranged view keeps its place in
/// ``arrangedSubviews`` and takes no room.
open class StackView: View {
    /// How arranged views share the stack's length (`UIStackView.Distribution`).
    public enum Distribution: Int, Sendable {
        /// Their own sizes; the one that yields first stretches to fill.
        case fill
        /// All the same size.
        case fillEqually
        /// In proportion to their own sizes.
        case fillProportionally
        /// Their own sizes, the free room shared out as equal gaps.
        case equalSpacing
        /// Their centres equally far apart.
        case equalCentering

        var name: String {
            switch self {
            case .fill: return "fill"
            case .fillEqually: return "fillEqually"
            case .fillProportionally: return "fillProportionally"
            case .equalSpacing: return "equalSpacing"
            case .equalCentering: return "equalCentering"
            }
        }
    }

    /// Where arranged views sit across the axis (`UIStackView.Alignment`).
    public enum Alignment: Int, Sendable {
        /// Stretched to the stack's breadth.
        case fill
        /// At the leading edge (a vertical stack) or the top (a horizontal one).
        case leading
        /// Lined up on their first text baselines (a horizontal stack).
        case firstBaseline
        /// Centred.
        case center
        /// At the trailing edge (a vertical stack) or the bottom (a horizontal one).
        case trailing
        /// Lined up on their last text baselines (a horizontal stack).
        case lastBaseline

        /// The top of a horizontal stack: UIKit's synonym for ``leading``.
        public static var top: Alignment { .leading }
        /// The bottom of a horizontal stack: UIKit's synonym for ``trailing``.
        public static var bottom: Alignment { .trailing }

        var name: String {
            switch self {
            case .fill: return "fill"
            case .leading: return "leading"
            case .firstBaseline: return "firstBaseline"
            case .center: return "center"
            case .trailing: return "trailing"
            case .lastBaseline: return "lastBaseline"
            }
        }
    }

    /// The spacing ``customSpacing(after:)`` reports for a view without one: the stack's
    /// ``spacing`` applies (`UIStackView.spacingUseDefault`).
    public static let spacingUseDefault = CGFloat(Float.greatestFiniteMagnitude)

    /// A custom spacing that asks for the platform's standard gap
    /// (`UIStackView.spacingUseSystem`); the browser uses its own, 8 points.
    public static let spacingUseSystem = CGFloat(Float.leastNormalMagnitude)

    /// The views the stack lays out, in order (independent of ``View/subviews``' order).
    public private(set) var arrangedSubviews: [View] = []

    /// Custom gaps after arranged views, by view.
    private var customSpacings: [ObjectIdentifier: CGFloat] = [:]

    /// A horizontal stack with no arranged views.
    public override init(frame: CGRect) {
        super.init(frame: frame)
    }

    /// UIKit's archive initializer: Bindery has no archives, so this is the plain view.
    public required convenience init?(coder: NSCoder) {
        self.init(frame: .zero)
    }

    /// A horizontal stack arranging `views`, in order, as
    /// `UIStackView(arrangedSubviews:)`.
    public convenience init(arrangedSubviews views: [View]) {
        self.init(frame: .zero)
        for view in views { addArrangedSubview(view) }
    }

    override public var kind: String { "stackView" }

    // MARK: - Arranging

    /// Arranges `view` last, making it a subview if it is not one; an arranged view
    /// moves to the end.
    public func addArrangedSubview(_ view: View) {
        insertArrangedSubview(view, at: arrangedSubviews.count)
    }

    /// Arranges `view` at `stackIndex` of ``arrangedSubviews`` (clamped), making it a
    /// subview if it is not one (on top of the others); an arranged view moves there.
    public func insertArrangedSubview(_ view: View, at stackIndex: Int) {
        guard view !== self else { return }
        let before = arrangedSubviews.map(ObjectIdentifier.init)
        var index = stackIndex
        if let from = arrangedSubviews.firstIndex(where: { $0 === view }) {
            arrangedSubviews.remove(at: from)
            if from < index { index -= 1 }
        }
        arrangedSubviews.insert(view, at: min(max(index, 0), arrangedSubviews.count))
        if view.superview !== self { addSubview(view) }
        if arrangedSubviews.map(ObjectIdentifier.init) != before { arrangementChanged() }
    }

    /// Stops arranging `view`. As in UIKit it stays a subview (and so on the page, where
    /// the stack puts subviews it does not arrange after the arranged ones); call
    /// `removeFromSuperview()` to take it away.
    public func removeArrangedSubview(_ view: View) {
        guard let index = arrangedSubviews.firstIndex(where: { $0 === view }) else { return }
        arrangedSubviews.remove(at: index)
        customSpacings[ObjectIdentifier(view)] = nil
        arrangementChanged()
    }

    /// A subview that leaves the stack is no longer arranged either.
    override open func willRemoveSubview(_ subview: View) {
        super.willRemoveSubview(subview)
        removeArrangedSubview(subview)
    }

    // MARK: - Layout properties

    /// The direction views are arranged in. Default ``LayoutAxis/horizontal``.
    public var axis: LayoutAxis = .horizontal {
        didSet { if axis != oldValue { changed(Self.axisProperty, .string(oldValue.name), .string(axis.name)) } }
    }

    /// How arranged views share the length. Default ``Distribution/fill``.
    public var distribution: Distribution = .fill {
        didSet {
            if distribution != oldValue {
                changed(Self.distributionProperty, .string(oldValue.name), .string(distribution.name))
            }
        }
    }

    /// Where arranged views sit across the axis. Default ``Alignment/fill``.
    public var alignment: Alignment = .fill {
        didSet {
            if alignment != oldValue { changed(Self.alignmentProperty, .string(oldValue.name), .string(alignment.name)) }
        }
    }

    /// The gap between arranged views, in points. Default 0.
    public var spacing: CGFloat = 0 {
        didSet { if spacing != oldValue { changed(Self.spacingProperty, WidgetValue(oldValue), WidgetValue(spacing)) } }
    }

    /// Whether the views are arranged inside the layout margins (8 points) rather than
    /// edge to edge. Default `false`.
    public var isLayoutMarginsRelativeArrangement = false {
        didSet {
            if isLayoutMarginsRelativeArrangement != oldValue {
                changed(Self.marginsProperty, .bool(oldValue), .bool(isLayoutMarginsRelativeArrangement))
            }
        }
    }

    /// Whether vertical gaps are measured from text baselines. Default `false`.
    public var isBaselineRelativeArrangement = false

    /// Sets the gap after `arrangedSubview` to `spacing` (``spacingUseDefault``: back to
    /// ``spacing``), as `setCustomSpacing(_:after:)`. A view the stack does not arrange is
    /// ignored (UIKit raises an exception).
    public func setCustomSpacing(_ spacing: CGFloat, after arrangedSubview: View) {
        guard arrangedSubviews.contains(where: { $0 === arrangedSubview }) else { return }
        let key = ObjectIdentifier(arrangedSubview)
        let new: CGFloat? = spacing == Self.spacingUseDefault ? nil : spacing
        guard customSpacings[key] != new else { return }
        customSpacings[key] = new
        arrangementChanged()
    }

    /// The custom gap after `arrangedSubview`, or ``spacingUseDefault`` when it has none.
    public func customSpacing(after arrangedSubview: View) -> CGFloat {
        customSpacings[ObjectIdentifier(arrangedSubview)] ?? Self.spacingUseDefault
    }

    // MARK: - The server's side

    static let axisProperty = "axis"
    static let distributionProperty = "distribution"
    static let alignmentProperty = "alignment"
    static let spacingProperty = "spacing"
    static let marginsProperty = "isLayoutMarginsRelativeArrangement"
    static let arrangementProperty = "arrangement"

    override func collectProperties(into properties: inout [String: WidgetValue]) {
        super.collectProperties(into: &properties)
        properties[Self.axisProperty] = .string(axis.name)
        properties[Self.distributionProperty] = .string(distribution.name)
        properties[Self.alignmentProperty] = .string(alignment.name)
        properties[Self.spacingProperty] = WidgetValue(spacing)
        properties[Self.marginsProperty] = .bool(isLayoutMarginsRelativeArrangement)
        properties[Self.arrangementProperty] = arrangementValue
    }

    /// The arranged views as rows keyed by widget id, each with its custom gap after it
    /// when it has one (`spacingAfter`; ``spacingUseSystem`` is `"system"`).
    var arrangementValue: WidgetValue {
        .rows(arrangedSubviews.map { view in
            var fields: [String: WidgetValue] = [:]
            if let gap = customSpacings[ObjectIdentifier(view)] {
                fields["spacingAfter"] = gap == Self.spacingUseSystem ? .string("system") : WidgetValue(gap)
            }
            return ListRow(id: view.id, fields: fields)
        })
    }

    private var recordedArrangement: WidgetValue?

    override func didJoinTree() {
        super.didJoinTree()
        recordedArrangement = arrangementValue
    }

    private func arrangementChanged() {
        let new = arrangementValue
        changed(Self.arrangementProperty, recordedArrangement ?? .rows([]), new)
        recordedArrangement = new
    }
}
