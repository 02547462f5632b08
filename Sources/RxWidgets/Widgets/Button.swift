import Foundation
import RxCore

/// A push button, like `UIButton`: a title per control state, `isEnabled`, and
/// `touchUpInside` when tapped (`button.rx.tap`).
open class Button: Control {
    /// A button's look, as `UIButton.ButtonType` (kept so UIKit code ports; the client
    /// decides the rendering).
    public enum ButtonType: Sendable {
        /// No style.
        case custom
        /// The system style.
        case system
    }

    /// The button's type.
    public private(set) var buttonType: ButtonType = .system

    private var titles: [UInt: String] = [:]

    /// The title shown now (the client's `title`): the title for the current state,
    /// falling back to the normal state's, as UIKit does.
    public private(set) var currentTitle: String? {
        didSet {
            if currentTitle != oldValue {
                changed(PropertyName.title, WidgetValue(oldValue), WidgetValue(currentTitle))
            }
        }
    }

    /// An enabled button with no title.
    public override init(frame: CGRect) {
        super.init(frame: frame)
    }

    /// A button of type `buttonType`.
    public convenience init(type buttonType: ButtonType) {
        self.init()
        self.buttonType = buttonType
    }

    override public var kind: String { "button" }

    /// Sets the title for `state` (`.normal` is the fallback for the others).
    public func setTitle(_ title: String?, for state: State) {
        titles[state.rawValue] = title
        updateCurrentTitle()
    }

    /// The title for `state`, falling back to the normal one.
    public func title(for state: State) -> String? {
        titles[state.rawValue] ?? titles[State.normal.rawValue]
    }

    override func enabledDidChange() {
        updateCurrentTitle()
    }

    private func updateCurrentTitle() {
        currentTitle = title(for: state)
    }

    override public var userEvents: Event {
        [.allTouchEvents, .primaryActionTriggered]
    }

    override func companionEvents(of event: Event) -> Event {
        // UIKit sends a button's primary action with its tap.
        event == .touchUpInside ? .primaryActionTriggered : []
    }

    override func collectProperties(into properties: inout [String: WidgetValue]) {
        super.collectProperties(into: &properties)
        properties[PropertyName.title] = WidgetValue(currentTitle)
    }
}
