import Foundation
/// A search field with search and cancel buttons, as `UISearchBar`.
///
/// Typing arrives as a text field's does (`editingDidBegin`, `editingChanged` with the
/// text, `editingDidEnd`); the buttons as `searchButtonClicked` and `cancelButtonClicked`
/// (RxCocoa's names). Cancel does not clear the text (UIKit leaves that to the app).
open class SearchBar: Control, WidgetEventReceiver {
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

    /// The hint shown while empty.
    public var placeholder: String? {
        didSet {
            if placeholder != oldValue {
                changed(PropertyName.placeholder, WidgetValue(oldValue), WidgetValue(placeholder))
            }
        }
    }

    /// Whether the cancel button shows. Default `false`.
    public var showsCancelButton: Bool = false {
        didSet {
            if showsCancelButton != oldValue {
                changed(SearchBarProperty.showsCancelButton, .bool(oldValue), .bool(showsCancelButton))
            }
        }
    }

    let searchButtonHub = EventHub<Void>()
    let cancelButtonHub = EventHub<Void>()

    /// An empty search bar.
    public override init(frame: CGRect) {
        super.init(frame: frame)
    }

    /// Sets ``showsCancelButton``.
    public func setShowsCancelButton(_ showsCancelButton: Bool, animated: Bool) {
        self.showsCancelButton = showsCancelButton
    }

    override public var kind: String { "searchBar" }

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
        properties[PropertyName.placeholder] = WidgetValue(placeholder)
        properties[SearchBarProperty.showsCancelButton] = .bool(showsCancelButton)
    }

    // MARK: - Buttons

    /// `searchButtonClicked`, `cancelButtonClicked`.
    public var widgetEventNames: Set<String> { [SearchBarProperty.searchButtonClicked, SearchBarProperty.cancelButtonClicked] }

    /// The user pressed Search (Return) or Cancel.
    public func receive(_ event: WidgetEvent) throws(WidgetInputError) {
        guard isEnabled else { throw WidgetInputError(.disabled, "\(kind) '\(id)' is disabled") }
        switch event.name {
        case SearchBarProperty.searchButtonClicked:
            searchButtonHub.send(())
        case SearchBarProperty.cancelButtonClicked where showsCancelButton:
            cancelButtonHub.send(())
        case SearchBarProperty.cancelButtonClicked:
            throw WidgetInputError(.unknownEvent, "\(kind) '\(id)' shows no cancel button")
        default:
            throw WidgetInputError(.unknownEvent, "\(kind) '\(id)' does not send \(event.name)")
        }
    }
}

enum SearchBarProperty {
    static let showsCancelButton = "showsCancelButton"
    static let searchButtonClicked = "searchButtonClicked"
    static let cancelButtonClicked = "cancelButtonClicked"
}
