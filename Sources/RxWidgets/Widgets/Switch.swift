import Foundation
/// An on/off switch, like `UISwitch`. Users' flips arrive as `valueChanged` with the new
/// state.
open class Switch: Control {
    /// Whether the switch is on. Default `false`.
    public var isOn: Bool = false {
        didSet {
            if isOn != oldValue {
                changed(PropertyName.isOn, .bool(oldValue), .bool(isOn))
            }
        }
    }

    /// A switch that is off.
    public override init(frame: CGRect) {
        super.init(frame: frame)
    }

    /// Sets the state; the animation is the client's business.
    public func setOn(_ on: Bool, animated: Bool) {
        isOn = on
    }

    override public var kind: String { "switch" }

    override public var valueProperty: String? { PropertyName.isOn }

    override func applyValue(_ value: WidgetValue) throws(WidgetInputError) -> WidgetValue {
        guard case .bool(let on) = value else {
            throw badValue(PropertyName.isOn, "a boolean", value)
        }
        isOn = on
        return .bool(isOn)
    }

    override func collectProperties(into properties: inout [String: WidgetValue]) {
        super.collectProperties(into: &properties)
        properties[PropertyName.isOn] = .bool(isOn)
    }
}
