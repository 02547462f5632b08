import Foundation
/// The widget of a ``NavigationController`` (kind `navigationController`): the stack of
/// screens a client shows (the top one, with its bar), and where the user's Back arrives.
///
/// Prop `screens`: rows, bottom to top, keyed by screen key (`screen-1`, ...): `title`,
/// `widgets` (the ids of the screen's widgets), `leftBarButtonItem` /
/// `rightBarButtonItem` (bar button item widget ids), `backTitle` (the back button's
/// title: the screen below's `backButtonTitle` or title), `hidesBackButton`,
/// `leftItemsSupplementBackButton`, `restorationIdentifier` (the screen's name in the URL;
/// each only when set).
public final class NavigationView: View, WidgetEventReceiver {
    private weak var navigationController: NavigationController?
    private var screenRows: [ListRow] = []

    init(navigationController: NavigationController) {
        self.navigationController = navigationController
        super.init(frame: .zero)
    }

    /// UIKit's archive initializer: Bindery has no archives, so this is the plain view.
    public required convenience init?(coder: NSCoder) {
        return nil  // made by its navigation controller only
    }

    override public var kind: String { "navigationController" }

    /// The event a client sends for its back button (or the browser's Back).
    public static let back = "back"

    func stackDidChange() {
        let old = screenRows
        screenRows = rows()
        if screenRows != old { changed(NavigationProperty.screens, .rows(old), .rows(screenRows)) }
    }

    private func rows() -> [ListRow] {
        guard let navigationController else { return [] }
        var rows: [ListRow] = []
        var below: NavigationItem?
        for (controller, screen) in navigationController.screenList {
            let item = controller.navigationItem
            var fields: [String: WidgetValue] = ["widgets": .strings(screen.widgets.map(\.id))]
            if let title = item.title { fields["title"] = .string(title) }
            if let left = item.leftBarButtonItem, left.tree != nil { fields["leftBarButtonItem"] = .string(left.id) }
            if let right = item.rightBarButtonItem, right.tree != nil { fields["rightBarButtonItem"] = .string(right.id) }
            if let below { fields["backTitle"] = .string(below.backButtonTitle ?? below.title ?? "Back") }
            if item.hidesBackButton { fields["hidesBackButton"] = .bool(true) }
            if item.leftItemsSupplementBackButton { fields["leftItemsSupplementBackButton"] = .bool(true) }
            if let identifier = controller.restorationIdentifier { fields["restorationIdentifier"] = .string(identifier) }
            rows.append(ListRow(id: screen.key, fields: fields))
            below = item
        }
        return rows
    }

    override func collectProperties(into properties: inout [String: WidgetValue]) {
        super.collectProperties(into: &properties)
        screenRows = rows()
        properties[NavigationProperty.screens] = .rows(screenRows)
    }

    // MARK: - User events

    /// `back`.
    public var widgetEventNames: Set<String> { [Self.back] }

    /// Back: pops the top screen, as UIKit's back button. `event.row`, when given, must
    /// be the top screen's key (a Back for a screen already gone is refused).
    public func receive(_ event: WidgetEvent) throws(WidgetInputError) {
        guard event.name == Self.back else {
            throw WidgetInputError(.unknownEvent, "\(kind) '\(id)' does not send \(event.name)")
        }
        guard let navigationController, let top = navigationController.topViewController,
              let key = navigationController.screenKey(of: top) else {
            throw WidgetInputError(.disabled, "\(kind) '\(id)' has no screen")
        }
        if let expected = event.row, expected != key {
            throw WidgetInputError(.unknownRow, "\(kind) '\(id)': the top screen is '\(key)', not '\(expected)'")
        }
        guard navigationController.viewControllers.count > 1, !top.navigationItem.hidesBackButton else {
            throw WidgetInputError(.disabled, "\(kind) '\(id)': there is no screen to go back to")
        }
        navigationController.popViewController(animated: true)
    }
}

enum NavigationProperty {
    static let screens = "screens"
}
