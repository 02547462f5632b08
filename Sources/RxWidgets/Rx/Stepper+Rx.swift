import RxCore

extension Reactive where Base: Stepper {
    /// The stepper's value.
    public var value: ControlProperty<Double> {
        controlPropertyWithDefaultEvents(
            getter: { stepper in stepper.value },
            setter: { stepper, value in stepper.value = value }
        )
    }
}
