import RxCore

/// An alert or action sheet, as `UIAlertController`: a title, a message, actions and (for
/// alerts) text fields. Show it with `present(_:animated:completion:)`; when the user
/// chooses an action the alert is dismissed and the action's handler runs, on the server.
///
/// ```swift
/// let alert = AlertController(title: "Rename", message: nil, preferredStyle: .alert)
/// alert.addTextField { $0.placeholder = "Name" }
/// alert.addAction(AlertAction(title: "Cancel", style: .cancel))
/// alert.addAction(AlertAction(title: "OK", style: .default) { _ in
///     rename(alert.textFields?.first?.text ?? "")
/// })
/// present(alert, animated: true)
/// ```
open class AlertController: ViewController {
    /// The kind of presentation, as `UIAlertController.Style`.
    public enum Style: String, Sendable {
        /// A sheet of actions (no text fields).
        case actionSheet
        /// A centred dialog.
        case alert
    }

    /// The title. Setting it while shown updates the client.
    override open var title: String? {
        didSet { alertView.setProperty(AlertProperty.title, WidgetValue(oldValue), WidgetValue(title)) }
    }

    /// The message. Setting it while shown updates the client.
    public var message: String? {
        didSet { alertView.setProperty(AlertProperty.message, WidgetValue(oldValue), WidgetValue(message)) }
    }

    /// The style, fixed at creation.
    public let preferredStyle: Style

    /// The actions, in the order added.
    public private(set) var actions: [AlertAction] = []

    /// The action the client emphasises (and chooses on Return); one of ``actions``.
    public var preferredAction: AlertAction? {
        didSet { actionsDidChange() }
    }

    private var fields: [TextField] = []

    /// The text fields, in the order added; `nil` when there are none, as in UIKit.
    public var textFields: [TextField]? { fields.isEmpty ? nil : fields }

    /// An alert of `preferredStyle`.
    public init(title: String?, message: String?, preferredStyle: Style) {
        self.message = message
        self.preferredStyle = preferredStyle
        super.init()
        if let title { relations.title = title }  // no observer: the view is not loaded yet
    }

    /// The alert's widget (what clients render as a modal dialog).
    public var alertView: AlertView { view as! AlertView }

    override open func loadView() {
        view = AlertView(alert: self)
    }

    /// Adds `action`. A second `.cancel` action is a mistake UIKit raises on: reported to
    /// `Hooks.bindingErrorHandler` and not added.
    public func addAction(_ action: AlertAction) {
        if action.style == .cancel, actions.contains(where: { $0.style == .cancel }) {
            Hooks.bindingErrorHandler(AlertError.secondCancelAction)
            return
        }
        action.alert = self
        actions.append(action)
        actionsDidChange()
    }

    /// Adds a text field, set up by `configurationHandler`. Only alerts have text
    /// fields: on an action sheet it is reported (UIKit raises) and nothing is added.
    public func addTextField(configurationHandler: ((TextField) -> Void)? = nil) {
        guard preferredStyle == .alert else {
            Hooks.bindingErrorHandler(AlertError.textFieldOnActionSheet)
            return
        }
        let field = TextField()
        configurationHandler?(field)
        fields.append(field)
        alertView.textFieldsDidChange()
    }

    func actionsDidChange() {
        guard isViewLoaded else { return }
        alertView.actionsDidChange()
    }
}

/// Mistakes in building an alert (UIKit raises exceptions for them).
public enum AlertError: Error, Equatable, CustomStringConvertible {
    /// A second action of style `.cancel`.
    case secondCancelAction
    /// A text field on an action sheet.
    case textFieldOnActionSheet

    /// A readable message.
    public var description: String {
        switch self {
        case .secondCancelAction: return "an alert can have only one action of style .cancel"
        case .textFieldOnActionSheet: return "text fields can only be added to an alert of style .alert"
        }
    }
}

enum AlertProperty {
    static let title = "title"
    static let message = "message"
    static let preferredStyle = "preferredStyle"
    static let actions = "actions"
    static let textFields = "textFields"
}
