import Foundation
/// A continuous value in a range, like `UISlider`. Users' moves arrive as
/// `valueChanged` with the new value.
///
/// As in UIKit, `value` is kept within `minimumValue...maximumValue`: values outside
/// are clamped, and moving a bound past the value moves the value (and past the other
/// bound moves that bound).
open class Slider: Control {
    private var storedValue: Float = 0
    private var storedMinimum: Float = 0
    private var storedMaximum: Float = 1

    /// The value, in `minimumValue...maximumValue`. Default 0.
    public var value: Float {
        get { storedValue }
        set { setValue(newValue) }
    }

    /// The lower bound. Default 0.
    public var minimumValue: Float {
        get { storedMinimum }
        set {
            guard !newValue.isNaN else { return }
            let old = storedMinimum
            storedMinimum = newValue
            if old != newValue {
                changed(PropertyName.minimumValue, WidgetValue(old), WidgetValue(newValue))
            }
            if storedMaximum < newValue { maximumValue = newValue }
            setValue(storedValue)
        }
    }

    /// The upper bound. Default 1.
    public var maximumValue: Float {
        get { storedMaximum }
        set {
            guard !newValue.isNaN else { return }
            let old = storedMaximum
            storedMaximum = newValue
            if old != newValue {
                changed(PropertyName.maximumValue, WidgetValue(old), WidgetValue(newValue))
            }
            if storedMinimum > newValue { minimumValue = newValue }
            setValue(storedValue)
        }
    }

    /// A slider over `0...1` at 0.
    public override init(frame: CGRect) {
        super.init(frame: frame)
    }

    /// Sets the value; the animation is the client's business.
    public func setValue(_ value: Float, animated: Bool) {
        setValue(value)
    }

    private func setValue(_ newValue: Float) {
        guard !newValue.isNaN else { return }
        let clamped = min(max(newValue, storedMinimum), storedMaximum)
        let old = storedValue
        storedValue = clamped
        if clamped != old {
            changed(PropertyName.value, WidgetValue(old), WidgetValue(clamped))
        }
    }

    override public var kind: String { "slider" }

    override public var valueProperty: String? { PropertyName.value }

    override func applyValue(_ value: WidgetValue) throws(WidgetInputError) -> WidgetValue {
        guard case .number(let number) = value, number.isFinite else {
            throw badValue(PropertyName.value, "a finite number", value)
        }
        setValue(Float(number))
        return WidgetValue(storedValue)
    }

    override func collectProperties(into properties: inout [String: WidgetValue]) {
        super.collectProperties(into: &properties)
        properties[PropertyName.value] = WidgetValue(storedValue)
        properties[PropertyName.minimumValue] = WidgetValue(storedMinimum)
        properties[PropertyName.maximumValue] = WidgetValue(storedMaximum)
    }
}
