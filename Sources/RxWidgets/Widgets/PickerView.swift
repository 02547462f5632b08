import Foundation

/// A spinning list to pick one row from, as `UIPickerView` with one component (the
/// browser's `<select>`). Bind titles with `rx.itemTitles`; a user's choice arrives as
/// `valueChanged` with the row index and fires `rx.itemSelected`.
open class PickerView: Control {
    /// The rows' titles (the `items` prop).
    public private(set) var titles: [String] = [] {
        didSet {
            if titles != oldValue { changed(PropertyName.items, .strings(oldValue), .strings(titles)) }
        }
    }

    private var selected = 0

    /// The models behind the rows, for `rx.modelSelected` (set by `rx.itemTitles`).
    var models: [Any] = []

    /// An empty picker.
    public override init(frame: CGRect) {
        super.init(frame: frame)
    }

    override public var kind: String { "pickerView" }

    /// The number of components: 1.
    public var numberOfComponents: Int { 1 }

    /// The number of rows in `component` (0 for another component than 0).
    public func numberOfRows(inComponent component: Int) -> Int {
        component == 0 ? titles.count : 0
    }

    /// The selected row of `component`: -1 when it has no rows, as UIKit's.
    public func selectedRow(inComponent component: Int) -> Int {
        component == 0 && !titles.isEmpty ? selected : -1
    }

    /// Selects `row` (clamped into the rows) without sending an event, as UIKit's.
    public func selectRow(_ row: Int, inComponent component: Int, animated: Bool) {
        guard component == 0 else { return }
        setSelected(min(max(row, 0), max(titles.count - 1, 0)))
    }

    /// Replaces the titles; the selection stays where it is, clamped into the rows.
    func setTitles(_ titles: [String]) {
        self.titles = titles
        setSelected(min(selected, max(titles.count - 1, 0)))
    }

    private func setSelected(_ row: Int) {
        let old = selected
        selected = row
        if selected != old { changed(PickerProperty.selectedRow, .number(Double(old)), .number(Double(selected))) }
    }

    override public var valueProperty: String? { PickerProperty.selectedRow }

    override public var userEvents: Event { [.valueChanged] }

    override func applyValue(_ value: WidgetValue) throws(WidgetInputError) -> WidgetValue {
        guard case .number(let number) = value, let row = Int(exactly: number), titles.indices.contains(row) else {
            throw WidgetInputError(.indexOutOfRange, "\(kind) '\(id)': selectedRow must be an integer in 0..<\(titles.count), got \(value)")
        }
        setSelected(row)
        return .number(Double(selected))
    }

    override func collectProperties(into properties: inout [String: WidgetValue]) {
        super.collectProperties(into: &properties)
        properties[PropertyName.items] = .strings(titles)
        properties[PickerProperty.selectedRow] = .number(Double(selected))
    }
}

enum PickerProperty {
    static let selectedRow = "selectedRow"
}
