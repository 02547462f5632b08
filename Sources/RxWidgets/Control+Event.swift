extension Control {
    /// The events a control sends, with `UIControl.Event`'s names and bit values.
    public struct Event: OptionSet, Hashable, Sendable {
        /// The bits.
        public let rawValue: UInt

        /// An event set from its bits.
        public init(rawValue: UInt) {
            self.rawValue = rawValue
        }

        /// A touch went down in the control.
        public static let touchDown = Event(rawValue: 1 << 0)
        /// A repeated touch went down (a double tap).
        public static let touchDownRepeat = Event(rawValue: 1 << 1)
        /// A finger was dragged inside the control.
        public static let touchDragInside = Event(rawValue: 1 << 2)
        /// A finger was dragged just outside the control.
        public static let touchDragOutside = Event(rawValue: 1 << 3)
        /// A finger was dragged into the control.
        public static let touchDragEnter = Event(rawValue: 1 << 4)
        /// A finger was dragged out of the control.
        public static let touchDragExit = Event(rawValue: 1 << 5)
        /// A touch went up inside the control: a tap (`button.rx.tap`).
        public static let touchUpInside = Event(rawValue: 1 << 6)
        /// A touch went up outside the control.
        public static let touchUpOutside = Event(rawValue: 1 << 7)
        /// A touch was cancelled.
        public static let touchCancel = Event(rawValue: 1 << 8)
        /// The user changed the control's value (slider, switch, segmented control,
        /// stepper, date picker).
        public static let valueChanged = Event(rawValue: 1 << 12)
        /// The control's primary action (a button's tap, a text field's Return).
        public static let primaryActionTriggered = Event(rawValue: 1 << 13)
        /// Editing began in a text field (it got focus).
        public static let editingDidBegin = Event(rawValue: 1 << 16)
        /// The user changed a text field's text.
        public static let editingChanged = Event(rawValue: 1 << 17)
        /// Editing ended in a text field (it lost focus).
        public static let editingDidEnd = Event(rawValue: 1 << 18)
        /// Editing ended with Return.
        public static let editingDidEndOnExit = Event(rawValue: 1 << 19)
        /// Every touch event.
        public static let allTouchEvents = Event(rawValue: 0x0000_0FFF)
        /// Every editing event.
        public static let allEditingEvents = Event(rawValue: 0x000F_0000)
        /// Reserved for applications.
        public static let applicationReserved = Event(rawValue: 0x0F00_0000)
        /// Reserved for the framework.
        public static let systemReserved = Event(rawValue: 0xF000_0000)
        /// Every event.
        public static let allEvents = Event(rawValue: 0xFFFF_FFFF)

        /// The single events by name: the wire protocol's event names.
        private static let named: [(String, Event)] = [
            ("touchDown", .touchDown), ("touchDownRepeat", .touchDownRepeat),
            ("touchDragInside", .touchDragInside), ("touchDragOutside", .touchDragOutside),
            ("touchDragEnter", .touchDragEnter), ("touchDragExit", .touchDragExit),
            ("touchUpInside", .touchUpInside), ("touchUpOutside", .touchUpOutside),
            ("touchCancel", .touchCancel), ("valueChanged", .valueChanged),
            ("primaryActionTriggered", .primaryActionTriggered),
            ("editingDidBegin", .editingDidBegin), ("editingChanged", .editingChanged),
            ("editingDidEnd", .editingDidEnd), ("editingDidEndOnExit", .editingDidEndOnExit),
        ]

        /// The single event named `name` (`"touchUpInside"`, `"valueChanged"`, ...), as
        /// clients send it; `nil` for an unknown name.
        public init?(name: String) {
            // Once per event on the hot path: comparing short names (stored inline in the
            // string, so each is one or two word compares), the common ones first, costs
            // a fraction of hashing the name for a dictionary.
            switch name {
            case "editingChanged": self = .editingChanged
            case "valueChanged": self = .valueChanged
            case "touchUpInside": self = .touchUpInside
            case "primaryActionTriggered": self = .primaryActionTriggered
            case "editingDidBegin": self = .editingDidBegin
            case "editingDidEnd": self = .editingDidEnd
            case "editingDidEndOnExit": self = .editingDidEndOnExit
            case "touchDown": self = .touchDown
            case "touchDownRepeat": self = .touchDownRepeat
            case "touchDragInside": self = .touchDragInside
            case "touchDragOutside": self = .touchDragOutside
            case "touchDragEnter": self = .touchDragEnter
            case "touchDragExit": self = .touchDragExit
            case "touchUpOutside": self = .touchUpOutside
            case "touchCancel": self = .touchCancel
            default: return nil
            }
        }

        /// The names of the single events in this set, in bit order.
        public var names: [String] {
            Self.named.filter { contains($0.1) }.map(\.0)
        }
    }

    /// A control's state, with `UIControl.State`'s names; titles can differ per state.
    public struct State: OptionSet, Hashable, Sendable {
        /// The bits.
        public let rawValue: UInt

        /// A state from its bits.
        public init(rawValue: UInt) {
            self.rawValue = rawValue
        }

        /// The normal state (no bits).
        public static let normal = State([])
        /// Highlighted (a touch is down).
        public static let highlighted = State(rawValue: 1 << 0)
        /// Disabled (`isEnabled == false`).
        public static let disabled = State(rawValue: 1 << 1)
        /// Selected.
        public static let selected = State(rawValue: 1 << 2)
        /// Focused.
        public static let focused = State(rawValue: 1 << 3)
    }
}
