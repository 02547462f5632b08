import Foundation
/// An editable multi-line text, as `UITextView`. Users' edits arrive as a text field's
/// (`editingDidBegin`, `editingChanged` with the whole text, `editingDidEnd`); Return is
/// a new line, not an event. `isEditable` is the control's `isEnabled`.
open class TextView: Control {
    /// The text; reading gives `""` rather than `nil`, as UIKit's.
    public var text: String? {
        get { storedText }
        set {
            let old = storedText
            storedText = newValue ?? ""
            if storedText != old { changed(PropertyName.text, .string(old), .string(storedText)) }
        }
    }

    private var storedText = ""

    /// Whether users can edit it (the control's `isEnabled`). Default `true`.
    public var isEditable: Bool {
        get { isEnabled }
        set { isEnabled = newValue }
    }

    /// An empty, editable text view.
    public override init(frame: CGRect) {
        super.init(frame: frame)
    }

    override public var kind: String { "textView" }

    override public var valueProperty: String? { PropertyName.text }

    override public var userEvents: Event { [.editingDidBegin, .editingChanged, .editingDidEnd] }

    override func applyValue(_ value: WidgetValue) throws(WidgetInputError) -> WidgetValue {
        switch value {
        case .string(let string): text = string
        case .null: text = nil
        default: throw badValue(PropertyName.text, "a string", value)
        }
        return .string(storedText)
    }

    override func collectProperties(into properties: inout [String: WidgetValue]) {
        super.collectProperties(into: &properties)
        properties[PropertyName.text] = .string(storedText)
    }
}
