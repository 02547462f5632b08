import Foundation
/// A button in a navigation bar, as `UIBarButtonItem`: a title or a system item, a
/// style, `isEnabled`, and `rx.tap`. Put it in a ``NavigationItem``; the server adds it
/// to the scene as a widget (kind `barButtonItem`) while its screen is shown, and a
/// client's tap is `touchUpInside`.
open class BarButtonItem: Control {
    /// The look, as `UIBarButtonItem.Style`.
    public enum Style: String, Sendable {
        /// A plain button.
        case plain
        /// Emphasised (bold): the screen's main action.
        case done
    }

    /// The standard items, as `UIBarButtonItem.SystemItem` (the client draws their
    /// titles or icons).
    public enum SystemItem: String, Sendable, CaseIterable {
        /// "Done".
        case done
        /// "Cancel".
        case cancel
        /// "Edit".
        case edit
        /// "Save".
        case save
        /// A plus.
        case add
        /// A compose icon.
        case compose
        /// A reply icon.
        case reply
        /// A share icon.
        case action
        /// A trash icon.
        case trash
        /// A refresh icon.
        case refresh
        /// A search icon.
        case search
        /// "Close".
        case close
    }

    /// The title (`nil` for a system item's own).
    public var title: String? {
        didSet {
            if title != oldValue { changed(PropertyName.title, WidgetValue(oldValue), WidgetValue(title)) }
        }
    }

    /// The style. Default ``Style/plain``.
    public var style: Style = .plain {
        didSet {
            if style != oldValue { changed(BarButtonProperty.style, .string(oldValue.rawValue), .string(style.rawValue)) }
        }
    }

    /// The system item it was made as, if any.
    public let systemItem: SystemItem?

    /// An item titled `title`.
    public init(title: String?, style: Style) {
        self.systemItem = nil
        super.init(frame: .zero)
        self.title = title
        self.style = style
    }

    /// UIKit's archive initializer: Bindery has no archives, so this is the plain view.
    public required convenience init?(coder: NSCoder) {
        self.init(title: nil, style: .plain)
    }

    /// A standard item (`.done` is in the done style, as in UIKit).
    public init(barButtonSystemItem systemItem: SystemItem) {
        self.systemItem = systemItem
        super.init(frame: .zero)
        if systemItem == .done { style = .done }
    }

    /// An untitled plain item.
    public convenience init() {
        self.init(title: nil, style: .plain)
    }

    override public var kind: String { "barButtonItem" }

    override public var userEvents: Event { [.touchUpInside, .primaryActionTriggered] }

    override func companionEvents(of event: Event) -> Event {
        event == .touchUpInside ? .primaryActionTriggered : []
    }

    override func collectProperties(into properties: inout [String: WidgetValue]) {
        super.collectProperties(into: &properties)
        properties[PropertyName.title] = WidgetValue(title)
        properties[BarButtonProperty.style] = .string(style.rawValue)
        properties[BarButtonProperty.systemItem] = WidgetValue(systemItem?.rawValue)
    }
}

enum BarButtonProperty {
    static let style = "style"
    static let systemItem = "systemItem"
}
