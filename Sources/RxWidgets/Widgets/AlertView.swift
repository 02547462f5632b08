import Foundation
/// The widget of an ``AlertController`` (kind `alertController`): what clients render
/// as a modal dialog, and where the user's choice arrives (`actionTriggered`).
///
/// Props: `title`, `message`, `preferredStyle` (`alert` / `actionSheet`), `actions`
/// (rows keyed by index: `title`, `style`, `isEnabled` when `false`, `isPreferred` when
/// `true`) and `textFields` (the ids of its text fields, which are `textField` widgets of
/// their own).
public final class AlertView: View, WidgetEventReceiver {
    /// Weak: the controller holds its view; the server holds the controller while shown.
    private weak var alertController: AlertController?
    private var actionRows: [ListRow] = []
    private var fieldIDs: [String] = []

    init(alert: AlertController) {
        alertController = alert
        super.init(frame: .zero)
        actionRows = Self.rows(of: alert)
    }

    /// UIKit's archive initializer: Bindery has no archives, so this is the plain view.
    public required convenience init?(coder: NSCoder) {
        return nil  // made by its alert controller only
    }

    override public var kind: String { "alertController" }

    /// The alert's text fields (the server adds them to the scene with the alert).
    public var textFieldWidgets: [TextField] { alertController?.textFields ?? [] }

    /// The event the client sends with the chosen action's index in `action`.
    public static let actionTriggered = "actionTriggered"

    func setProperty(_ name: String, _ old: WidgetValue, _ new: WidgetValue) {
        if old != new { changed(name, old, new) }
    }

    func actionsDidChange() {
        guard let alert = alertController else { return }
        let old = actionRows
        actionRows = Self.rows(of: alert)
        if actionRows != old { changed(AlertProperty.actions, .rows(old), .rows(actionRows)) }
    }

    func textFieldsDidChange() {
        let old = fieldIDs
        fieldIDs = textFieldWidgets.map(\.id)
        if fieldIDs != old { changed(AlertProperty.textFields, .strings(old), .strings(fieldIDs)) }
    }

    private static func rows(of alert: AlertController) -> [ListRow] {
        alert.actions.enumerated().map { index, action in
            var fields: [String: WidgetValue] = [AlertProperty.title: WidgetValue(action.title),
                                                 "style": .string(action.style.rawValue)]
            if !action.isEnabled { fields["isEnabled"] = .bool(false) }
            if alert.preferredAction === action { fields["isPreferred"] = .bool(true) }
            return ListRow(id: String(index), fields: fields)
        }
    }

    override func collectProperties(into properties: inout [String: WidgetValue]) {
        super.collectProperties(into: &properties)
        fieldIDs = textFieldWidgets.map(\.id)
        properties[AlertProperty.title] = WidgetValue(alertController?.title)
        properties[AlertProperty.message] = WidgetValue(alertController?.message)
        properties[AlertProperty.preferredStyle] = .string((alertController?.preferredStyle ?? .alert).rawValue)
        properties[AlertProperty.actions] = .rows(actionRows)
        properties[AlertProperty.textFields] = .strings(fieldIDs)
    }

    // MARK: - User events

    /// `actionTriggered`.
    public var widgetEventNames: Set<String> { [Self.actionTriggered] }

    /// The user chose action `event.action` (Escape chooses the cancel action): the
    /// texts in `event.value` (a list of strings, one per text field, optional) are set,
    /// the alert is dismissed, then the action's handler runs, as in UIKit.
    public func receive(_ event: WidgetEvent) throws(WidgetInputError) {
        guard event.name == Self.actionTriggered else {
            throw WidgetInputError(.unknownEvent, "\(kind) '\(id)' does not send \(event.name)")
        }
        guard let alert = alertController else {
            throw WidgetInputError(.unknownAction, "\(kind) '\(id)' is not shown")
        }
        guard let index = event.action else {
            throw WidgetInputError(.badValue, "\(kind) '\(id)': actionTriggered needs an 'action' (an action index)")
        }
        guard alert.actions.indices.contains(index) else {
            throw WidgetInputError(.unknownAction, "\(kind) '\(id)' has no action \(index) (it has \(alert.actions.count))")
        }
        guard alert.presentingViewController != nil else {
            throw WidgetInputError(.unknownAction, "\(kind) '\(id)' is not shown")
        }
        let action = alert.actions[index]
        guard action.isEnabled else {
            throw WidgetInputError(.disabled, "\(kind) '\(id)': action \(index) is disabled")
        }
        let fields = textFieldWidgets
        if let value = event.value {
            guard case .strings(let texts) = value, texts.count == fields.count else {
                throw WidgetInputError(.badValue, "\(kind) '\(id)': value must be a list of \(fields.count) strings (the text fields' texts)")
            }
            for (field, text) in zip(fields, texts) where field.text != text {
                // A user's edit: the field sends editingChanged, as typing would.
                _ = try? field.sendUserEvent(.editingChanged, value: .string(text))
            }
        }
        alert.dismiss(animated: true) {
            action.handler?(action)
        }
    }
}
