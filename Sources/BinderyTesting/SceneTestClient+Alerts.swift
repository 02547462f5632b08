import Bindery
import RxWidgets

/// Presented alerts as the client shows them (PROTOCOL.md, "Alerts"), with `seq` kept
/// for you.
extension SceneTestClient {
    /// The alert on top (the last one presented and not yet dismissed), or nil.
    public var presentedAlert: SceneTestWidget? {
        widgets.last { $0.kind == "alertController" }
    }

    /// The titles of the presented alert's actions, in order (empty without an alert).
    public var alertActionTitles: [String] {
        guard case .rows(let actions)? = presentedAlert?["actions"] else { return [] }
        return actions.map { row in
            if case .string(let title)? = row["title"] { return title }
            return ""
        }
    }

    /// Chooses the presented alert's action titled `title`, as a click on its button does
    /// (`actionTriggered`). `texts`, one per text field, are what the user typed into
    /// them, sent with the action as the browser does: the server applies each that
    /// differs as typing (its bindings run), then the action.
    ///
    /// - Throws: ``SceneTestError`` when no alert is presented or it has no such action.
    @discardableResult
    public func chooseAlertAction(_ title: String, texts: [String]? = nil) throws -> SceneTestAnswer {
        guard let index = alertActionTitles.firstIndex(of: title) else {
            throw SceneTestError(presentedAlert == nil
                ? "no alert is presented (wanted its action '\(title)')"
                : "the alert has no action '\(title)' (it has \(alertActionTitles.map { "'\($0)'" }.joined(separator: ", ")))")
        }
        return try chooseAlertAction(at: index, texts: texts)
    }

    /// Chooses the presented alert's action at `index` (see ``chooseAlertAction(_:texts:)``).
    ///
    /// - Throws: ``SceneTestError`` when no alert is presented.
    @discardableResult
    public func chooseAlertAction(at index: Int, texts: [String]? = nil) throws -> SceneTestAnswer {
        guard let alert = presentedAlert else { throw SceneTestError("no alert is presented (wanted action \(index))") }
        if let texts {
            guard case .strings(let fields)? = alert["textFields"], fields.count == texts.count else {
                throw SceneTestError("alert '\(alert.id)' does not have \(texts.count) text fields")
            }
        }
        return sendEvent("actionTriggered", to: alert.id, value: texts.map { .strings($0) }, action: index)
    }
}
