import Foundation
/// A value changed in steps with − and + buttons, like `UIStepper`. Users' steps arrive
/// as `valueChanged` with the new value.
///
/// As in UIKit, `value` stays within `minimumValue...maximumValue` (default `0...100`),
/// clamped when set outside.
open class Stepper: Control {
    private var storedValue: Double = 0
    private var storedMinimum: Double = 0
    private var storedMaximum: Double = 100

    /// The value. Default 0.
    public var value: Double {
        get { storedValue }
        set { setValue(newValue) }
    }

    /// The lower bound. Default 0.
    public var minimumValue: Double {
        get { storedMinimum }
        set {
            guard newValue.isFinite else { return }
            let old = storedMinimum
            storedMinimum = newValue
            if old != newValue { changed(PropertyName.minimumValue, .number(old), .number(newValue)) }
            if storedMaximum < newValue { maximumValue = newValue }
            setValue(storedValue)
        }
    }

    /// The upper bound. Default 100.
    public var maximumValue: Double {
        get { storedMaximum }
        set {
            guard newValue.isFinite else { return }
            let old = storedMaximum
            storedMaximum = newValue
            if old != newValue { changed(PropertyName.maximumValue, .number(old), .number(newValue)) }
            if storedMinimum > newValue { minimumValue = newValue }
            setValue(storedValue)
        }
    }

    /// The step. Default 1; must be positive (other values are ignored).
    public var stepValue: Double = 1 {
        didSet {
            if !(stepValue > 0) || !stepValue.isFinite { stepValue = oldValue; return }
            if stepValue != oldValue { changed(PropertyName.stepValue, .number(oldValue), .number(stepValue)) }
        }
    }

    /// A stepper over `0...100` at 0, stepping by 1.
    public override init(frame: CGRect) {
        super.init(frame: frame)
    }

    private func setValue(_ newValue: Double) {
        guard !newValue.isNaN else { return }
        let clamped = min(max(newValue, storedMinimum), storedMaximum)
        let old = storedValue
        storedValue = clamped
        if clamped != old { changed(PropertyName.value, .number(old), .number(clamped)) }
    }

    override public var kind: String { "stepper" }

    override public var valueProperty: String? { PropertyName.value }

    override func applyValue(_ value: WidgetValue) throws(WidgetInputError) -> WidgetValue {
        guard case .number(let number) = value, number.isFinite else {
            throw badValue(PropertyName.value, "a finite number", value)
        }
        setValue(number)
        return .number(storedValue)
    }

    override func collectProperties(into properties: inout [String: WidgetValue]) {
        super.collectProperties(into: &properties)
        properties[PropertyName.value] = .number(storedValue)
        properties[PropertyName.minimumValue] = .number(storedMinimum)
        properties[PropertyName.maximumValue] = .number(storedMaximum)
        properties[PropertyName.stepValue] = .number(stepValue)
    }
}
