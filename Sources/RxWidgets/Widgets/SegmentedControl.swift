import Foundation
/// A row of titled segments, one of which may be selected, like `UISegmentedControl`.
/// Users' choices arrive as `valueChanged` with the segment index.
open class SegmentedControl: Control {
    /// The index meaning "no segment selected".
    public static let noSegment = -1

    /// The segments' titles, in order.
    public private(set) var segments: [String] = [] {
        didSet {
            if segments != oldValue {
                changed(PropertyName.segments, .strings(oldValue), .strings(segments))
            }
        }
    }

    private var storedIndex = SegmentedControl.noSegment

    /// The selected segment's index, or ``noSegment`` (-1, the default). In code an index
    /// outside `-1..<numberOfSegments` selects no segment; from a user it is an error.
    public var selectedSegmentIndex: Int {
        get { storedIndex }
        set {
            let index = (0..<segments.count).contains(newValue) ? newValue : Self.noSegment
            let old = storedIndex
            storedIndex = index
            if index != old {
                changed(PropertyName.selectedSegmentIndex, .number(Double(old)), .number(Double(index)))
            }
        }
    }

    /// A control with no segments.
    public override init(frame: CGRect) {
        super.init(frame: frame)
    }

    /// A control with a segment for each title, none selected.
    public convenience init(items: [String]) {
        self.init()
        segments = items
    }

    /// The number of segments.
    public var numberOfSegments: Int { segments.count }

    /// Inserts a segment titled `title` at `segment` (clamped to `0...numberOfSegments`).
    /// The selection stays on the same segment.
    public func insertSegment(withTitle title: String?, at segment: Int, animated: Bool) {
        let index = min(max(segment, 0), segments.count)
        segments.insert(title ?? "", at: index)
        if storedIndex >= index { selectedSegmentIndex = storedIndex + 1 }
    }

    /// Removes the segment at `segment`; removing the selected one selects none.
    public func removeSegment(at segment: Int, animated: Bool) {
        guard segments.indices.contains(segment) else { return }
        let selected = storedIndex
        segments.remove(at: segment)
        if selected == segment {
            selectedSegmentIndex = Self.noSegment
        } else if selected > segment {
            selectedSegmentIndex = selected - 1
        }
    }

    /// Removes every segment (and the selection).
    public func removeAllSegments() {
        selectedSegmentIndex = Self.noSegment
        segments = []
    }

    /// Sets the title of the segment at `segment`.
    public func setTitle(_ title: String?, forSegmentAt segment: Int) {
        guard segments.indices.contains(segment) else { return }
        segments[segment] = title ?? ""
    }

    /// The title of the segment at `segment`.
    public func titleForSegment(at segment: Int) -> String? {
        segments.indices.contains(segment) ? segments[segment] : nil
    }

    override public var kind: String { "segmentedControl" }

    override public var valueProperty: String? { PropertyName.selectedSegmentIndex }

    override func applyValue(_ value: WidgetValue) throws(WidgetInputError) -> WidgetValue {
        guard case .number(let number) = value, let index = Int(exactly: number),
              index == Self.noSegment || segments.indices.contains(index)
        else {
            throw badValue(PropertyName.selectedSegmentIndex, "an integer in -1..<\(segments.count)", value)
        }
        selectedSegmentIndex = index
        return .number(Double(storedIndex))
    }

    override func collectProperties(into properties: inout [String: WidgetValue]) {
        super.collectProperties(into: &properties)
        properties[PropertyName.segments] = .strings(segments)
        properties[PropertyName.selectedSegmentIndex] = .number(Double(storedIndex))
    }
}
