import Foundation
import RxWidgets

/// A value a test can put in an event, as a client would send it: write
/// `value: 0.25`, `value: "hello"`, `value: true`, `value: 2`, or any ``WidgetValue``.
public protocol SceneTestValue {
    /// The value as the server sees it after decoding the client's JSON.
    var widgetValue: WidgetValue { get }
}

extension WidgetValue: SceneTestValue {
    /// Itself.
    public var widgetValue: WidgetValue { self }
}

extension Double: SceneTestValue {
    /// A JSON number.
    public var widgetValue: WidgetValue { .number(self) }
}

extension Int: SceneTestValue {
    /// A JSON number (segment indices, steps).
    public var widgetValue: WidgetValue { .number(Double(self)) }
}

extension String: SceneTestValue {
    /// A JSON string.
    public var widgetValue: WidgetValue { .string(self) }
}

extension Bool: SceneTestValue {
    /// A JSON boolean.
    public var widgetValue: WidgetValue { .bool(self) }
}

extension Date: SceneTestValue {
    /// An ISO 8601 date.
    public var widgetValue: WidgetValue { .date(self) }
}

extension Color: SceneTestValue {
    /// A `#rrggbbaa` colour.
    public var widgetValue: WidgetValue { .color(self) }
}
