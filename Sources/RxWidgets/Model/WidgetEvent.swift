/// A user's action on a widget that is not a `Control.Event`: a table row tapped,
/// deleted or moved, an alert's action chosen. The server builds it from a client's
/// `event` message (PROTOCOL.md) and hands it to the widget's
/// ``WidgetEventReceiver/receive(_:)``.
public struct WidgetEvent: Equatable, Sendable {
    /// The event's name (`itemSelected`, `itemMoved`, `actionTriggered`, ...).
    public var name: String
    /// The row's key, for row events.
    public var row: String?
    /// The destination section's key, for `itemMoved`.
    public var toSection: String?
    /// The destination row index within that section (counted after removing the
    /// moved row, as UIKit's `destinationIndexPath.row`), for `itemMoved`.
    public var toIndex: Int?
    /// The chosen action's index, for an alert.
    public var action: Int?
    /// A value (an alert's text fields' texts, as a list of strings).
    public var value: WidgetValue?

    /// An event.
    public init(name: String, row: String? = nil, toSection: String? = nil, toIndex: Int? = nil,
                action: Int? = nil, value: WidgetValue? = nil) {
        self.name = name
        self.row = row
        self.toSection = toSection
        self.toIndex = toIndex
        self.action = action
        self.value = value
    }
}

/// A widget that users act on through ``WidgetEvent``s rather than `Control.Event`s
/// (a ``TableView``, an ``AlertController``).
public protocol WidgetEventReceiver: View {
    /// The event names it accepts.
    var widgetEventNames: Set<String> { get }

    /// Performs a user's action: checks it, updates the widget as UIKit would, then sends
    /// the `rx` events it causes, in UIKit's order.
    ///
    /// - Throws: ``WidgetInputError`` (`unknown-event`, `unknown-row`, `unknown-action`,
    ///   `index-out-of-range`, `bad-value`, `disabled`); nothing is changed or sent then.
    func receive(_ event: WidgetEvent) throws(WidgetInputError)
}
