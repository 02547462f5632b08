import RxCore

extension Reactive where Base: TextField {
    /// The text field's text (same as ``value``).
    public var text: ControlProperty<String?> {
        value
    }

    /// The text field's text, sent on every editing event and `valueChanged`. Writing
    /// the text it already has does nothing (so a two-way binding does not disturb the
    /// user's typing, as in RxCocoa).
    public var value: ControlProperty<String?> {
        controlPropertyWithDefaultEvents(
            getter: { textField in textField.text },
            setter: { textField, value in
                if textField.text != value {
                    textField.text = value
                }
            }
        )
    }
}
