import Foundation
/// An editable single-line text, like `UITextField`.
///
/// Users' edits arrive as `editingDidBegin`, `editingChanged` (with the new text),
/// `editingDidEnd` and `editingDidEndOnExit` (Return, which also sends
/// `primaryActionTriggered`).
open class TextField: Control {
    /// The text. Reading gives `""` rather than `nil` (as UIKit's text field does), so
    /// setting `nil` clears it.
    public var text: String? {
        get { storedText }
        set {
            let old = storedText
            storedText = newValue ?? ""
            if storedText != old {
                changed(PropertyName.text, .string(old), .string(storedText))
            }
        }
    }

    private var storedText = ""

    /// The hint shown while the text is empty; `nil` by default.
    public var placeholder: String? {
        didSet {
            if placeholder != oldValue {
                changed(PropertyName.placeholder, WidgetValue(oldValue), WidgetValue(placeholder))
            }
        }
    }

    /// Whether the text is hidden as typed (a password). Default `false`.
    public var isSecureTextEntry: Bool = false {
        didSet {
            if isSecureTextEntry != oldValue {
                changed(PropertyName.isSecureTextEntry, .bool(oldValue), .bool(isSecureTextEntry))
            }
        }
    }

    /// What the text is (`UITextContentType`: a user name, a new password, an email
    /// address), so the browser and password managers can fill it in: the client sets the
    /// input's `autocomplete` to it. `nil` by default (the browser guesses). Sent only
    /// when set.
    public var textContentType: TextContentType? {
        didSet {
            if textContentType != oldValue {
                changed(PropertyName.textContentType, WidgetValue(oldValue?.rawValue), WidgetValue(textContentType?.rawValue))
            }
        }
    }

    /// An empty, enabled text field.
    public override init(frame: CGRect) {
        super.init(frame: frame)
    }

    override public var kind: String { "textField" }

    override public var valueProperty: String? { PropertyName.text }

    override public var userEvents: Event {
        [.allEditingEvents, .allTouchEvents, .primaryActionTriggered]
    }

    override func companionEvents(of event: Event) -> Event {
        event == .editingDidEndOnExit ? .primaryActionTriggered : []
    }

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
        properties[PropertyName.placeholder] = WidgetValue(placeholder)
        properties[PropertyName.isSecureTextEntry] = .bool(isSecureTextEntry)
        if let textContentType { properties[PropertyName.textContentType] = .string(textContentType.rawValue) }
    }
}
