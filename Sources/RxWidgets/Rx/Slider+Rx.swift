import RxCore

extension Reactive where Base: Slider {
    /// The slider's value.
    public var value: ControlProperty<Float> {
        controlPropertyWithDefaultEvents(
            getter: { slider in slider.value },
            setter: { slider, value in slider.value = value }
        )
    }
}
