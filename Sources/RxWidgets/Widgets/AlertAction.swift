/// A button of an ``AlertController``, as `UIAlertAction`: a title, a style, whether it is
/// enabled, and a handler that runs on the server when the user chooses it.
public final class AlertAction {
    /// How the action looks and behaves, as `UIAlertAction.Style`.
    public enum Style: String, Sendable {
        /// A normal action.
        case `default`
        /// Cancels: at most one per alert; Escape (or a tap outside an action sheet) chooses it.
        case cancel
        /// Destroys something (shown in red).
        case destructive
    }

    /// The button's title.
    public let title: String?
    /// The style.
    public let style: Style
    /// Whether the user can choose it. Default `true`.
    public var isEnabled: Bool = true {
        didSet {
            if isEnabled != oldValue { alert?.actionsDidChange() }
        }
    }

    let handler: ((AlertAction) -> Void)?
    weak var alert: AlertController?

    /// An action; `handler` runs after the alert is dismissed when the user chooses it.
    public init(title: String?, style: Style, handler: ((AlertAction) -> Void)? = nil) {
        self.title = title
        self.style = style
        self.handler = handler
    }
}
