import RxCore

extension Reactive where Base: Switch {
    /// Whether the switch is on (same as ``value``).
    public var isOn: ControlProperty<Bool> {
        value
    }

    /// Whether the switch is on.
    public var value: ControlProperty<Bool> {
        controlPropertyWithDefaultEvents(
            getter: { uiSwitch in uiSwitch.isOn },
            setter: { uiSwitch, value in uiSwitch.isOn = value }
        )
    }
}
